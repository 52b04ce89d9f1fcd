import { describe, expect, it } from 'vitest';
import {
  batchStamp,
  countriesCsv,
  countriesFileName,
  countryCsv,
  countryFileName,
  humanLabel,
} from '../../src/server/services/exports/spreadsheet-csv.js';
import type { CountrySummary } from '../../src/shared/bff-api.js';

/*
 * The spreadsheet CSVs cell by cell (the app-level tests are spreadsheet.test.ts): labels, file
 * names, rank and order, the tier filter, numbers, and the rows of one country's categories.
 */
const AS_OF = '2026-11-22T10:05:00Z';
/** The batch time as the spreadsheet reads it: a date-time cell, UTC. */
const AS_OF_CELL = '2026-11-22 10:05:00';
const BOM = '\uFEFF';

function lines(csv: Buffer): string[] {
  const text = csv.toString('utf8');
  expect(text.startsWith(BOM)).toBe(true);
  expect(text.endsWith('\r\n')).toBe(true);
  return text.slice(1, -2).split('\r\n');
}

const mali: CountrySummary = {
  iso: 'mli',
  name: 'Mali',
  risk: 71.5,
  tier: 'high',
  static: 40,
  active: 31.5,
  delta_active: -2.25,
  delta_headline: 0,
  confidence: 80,
  profile: 'chronic_conflict',
  threat_vectors: ['civil_unrest', 'armed-conflict'],
  source_count: 12,
};

describe('labels and file names', () => {
  it('turns codes into words', () => {
    expect(humanLabel('civil_unrest')).toBe('Civil unrest');
    expect(humanLabel('armed-conflict__x')).toBe('Armed conflict x');
    expect(humanLabel('_lead_')).toBe('Lead');
    expect(humanLabel('_-_')).toBe('');
    expect(humanLabel('')).toBe('');
    expect(humanLabel(null)).toBe('');
  });

  it('names files after the batch in UTC, or "latest" when its time is unreadable', () => {
    expect(batchStamp('2026-11-22T12:05:00+02:00')).toBe('2026-11-22-1005');
    expect(batchStamp('not a time')).toBeNull();
    expect(countriesFileName(AS_OF, [])).toBe('global-risk-2026-11-22-1005.csv');
    expect(countriesFileName(AS_OF, ['crit', 'high'])).toBe(
      'global-risk-2026-11-22-1005-crit-high.csv',
    );
    expect(countriesFileName('?', ['low'])).toBe('global-risk-latest-low.csv');
    expect(countryFileName(AS_OF, 'MLI')).toBe('global-risk-MLI-2026-11-22-1005.csv');
    expect(countryFileName('?', 'MLI')).toBe('global-risk-MLI-latest.csv');
  });
});

describe('the countries CSV', () => {
  it('one row per country, highest risk first, every column in words or numbers', () => {
    const rows = lines(
      countriesCsv(
        AS_OF,
        [
          { iso: 'aaa', name: 'Unrated' },
          { iso: 'low', name: 'Calm', risk: 10, tier: 'low' },
          mali,
          { iso: 'odd', name: 'Odd', tier: 'weird', static: Number.POSITIVE_INFINITY },
        ],
        [],
      ),
    );
    expect(rows[0]).toBe(
      'Rank,Country,ISO code,Risk (0–100),Tier,Static score,Active score,' +
        'Change in risk score since the previous batch recorded here,' +
        '"Change in headline score, the provider\'s own figure (period not stated)",' +
        '"Change in active score, the provider\'s own figure (period not stated)",' +
        'Confidence (0–100),Profile,Threat vectors,Sources,Data generated (UTC),Batch id,' +
        'Methodology version',
    );
    expect(rows.slice(1)).toEqual([
      `1,Mali,MLI,71.5,High,40,31.5,,0,-2.25,80,Chronic conflict,Civil unrest; Armed conflict,12,${AS_OF_CELL},,`,
      `2,Calm,LOW,10,Low,,,,,,,,,,${AS_OF_CELL},,`,
      `,Unrated,AAA,,,,,,,,,,,,${AS_OF_CELL},,`,
      `,Odd,ODD,,weird,,,,,,,,,,${AS_OF_CELL},,`,
    ]);
  });

  it("the risk change is ours where both batches are recorded, the provider's beside it by name", () => {
    // Issue 33, point 1: Ukraine's provider figure says down 0.66; we recorded +6.01.
    const ukraine = { iso: 'UKR', name: 'Ukraine', risk: 95, tier: 'crit', delta_headline: -0.66 };
    const rows = lines(countriesCsv(AS_OF, [ukraine, mali], [], 'b1', new Map([['UKR', 6.01]])));
    const cells = (row: string | undefined) => (row ?? '').split(',').slice(7, 9);
    expect(cells(rows[1])).toEqual(['6.01', '-0.66']);
    // Mali's previous batch is not recorded: no figure of ours, the provider's under its name.
    expect(cells(rows[2])).toEqual(['', '0']);
  });

  it('a tier filter keeps each country’s rank in the whole batch', () => {
    const rows = lines(
      countriesCsv(AS_OF, [{ iso: 'x', name: 'X', risk: 90, tier: 'crit' }, mali], ['high']),
    );
    expect(rows.slice(1).map((r) => r.split(',').slice(0, 2).join(','))).toEqual(['2,Mali']);
    expect(lines(countriesCsv(AS_OF, [{ iso: 'x', name: 'X' }], ['high']))).toHaveLength(1);
  });
});

describe('one country’s CSV', () => {
  it('documented categories first in the API’s order, then the others, numbers repeated', () => {
    const rows = lines(
      countryCsv(AS_OF, {
        ...mali,
        categories: {
          zeta_extra: { score: 5, static: 2, active: 3, weight: 0.01 },
          crime: { score: 30, static: 10, active: 20, weight: 0.1 },
          security: { score: 80, static: 50, active: 30, weight: 0.2 },
        },
      }),
    );
    expect(rows).toEqual([
      'Country,ISO code,Data generated (UTC),Risk (0–100),Tier,Static score,Active score,' +
        'Category,Category score,Category static part,Category active part,Category weight,' +
        'Batch id,Methodology version,Our notes',
      `Mali,MLI,${AS_OF_CELL},71.5,High,40,31.5,Security,80,50,30,0.2,,,`,
      `Mali,MLI,${AS_OF_CELL},71.5,High,40,31.5,Crime,30,10,20,0.1,,,`,
      `Mali,MLI,${AS_OF_CELL},71.5,High,40,31.5,Zeta extra,5,2,3,0.01,,,`,
    ]);
  });

  it('without categories: one row with the country’s own numbers', () => {
    expect(lines(countryCsv(AS_OF, { iso: 'mli', name: 'Mali' })).slice(1)).toEqual([
      `Mali,MLI,${AS_OF_CELL},,,,,,,,,,,,`,
    ]);
  });
});

describe('the batch cited (issue 22)', () => {
  it('every row carries the batch id in its own column, and the method beside it (issue 31)', () => {
    const id = 'ab'.repeat(32);
    const method = 'ggri-m 4.0';
    expect(
      lines(countriesCsv(AS_OF, [mali], [], id, null, method))[1]
        ?.split(',')
        .slice(-2),
    ).toEqual([id, method]);
    expect(
      lines(countryCsv(AS_OF, { iso: 'mli', name: 'Mali' }, id, method))[1]
        ?.split(',')
        .slice(-3, -1),
    ).toEqual([id, method]);
  });
});
