import { describe, expect, it } from 'vitest';
import { parseCsvCountries } from '../../src/server/services/upstream-resources/csv-countries.js';

describe('parseCsvCountries', () => {
  it('maps columns by name, in any order, with RFC 4180 quoting and tolerant comments', () => {
    const csv = [
      '# counts: countries=2',
      '# methodology_version: m-1',
      '# generated_at: 2026-11-23T03:00:00.000Z',
      '# global_ggri: 48.5',
      '\uFEFFrisk,name,ISO,threat_vectors,security.score,security_weight,extra',
      '81.5,"Korea, Republic of",kor,"cyber;  state actors ",70.25,0.2,x',
      '12,"Côte d\'Ivoire ""CI""",CIV,,,,',
      ',no iso row,,,,,',
    ].join('\r\n');
    const parsed = parseCsvCountries(csv);
    expect(parsed.asOf).toBe('2026-11-23T03:00:00.000Z');
    expect(parsed.methodologyVersion).toBe('m-1');
    expect(parsed.globalIndex).toBe(48.5);
    expect(parsed.countries).toHaveLength(2);
    expect(parsed.countries[0]).toMatchObject({
      iso: 'KOR',
      name: 'Korea, Republic of',
      risk: 81.5,
      threat_vectors: ['cyber', 'state actors'],
      categories: { security: { score: 70.25, weight: 0.2 } },
      extra: 'x',
    });
    expect(parsed.countries[1]).toMatchObject({
      iso: 'CIV',
      name: 'Côte d\'Ivoire "CI"',
      risk: 12,
    });
  });

  it('throws on text that is not CSV', () => {
    expect(() => parseCsvCountries('iso,name\n"unterminated,quote\n')).toThrow();
  });
});
