import { describe, expect, it } from 'vitest';
import { configTrail, partOf } from '../../scripts/config-trail.mjs';

/*
 * Issue 35, item 2: each part takes its own slice of the settings. Following `config` from
 * buildApp enters at most one file per part (its entry, which hands plain values below it) and
 * never enters a file twice. scripts/config-trail.mjs does the walk; this pins its figure.
 */
describe('the settings travel one step into each part', () => {
  it('enters at most one file per part', () => {
    const crowded = Object.fromEntries(configTrail.crowded.map((p) => [p, configTrail.parts[p]]));
    expect(crowded).toEqual({});
  });

  it('never enters a file a second time', () => {
    expect(configTrail.returns, configTrail.trail.join('\n')).toBe(0);
  });

  it('names the part of a file as docs/architecture.md defines it', () => {
    expect(partOf('src/server/compose/app.ts')).toBeNull();
    expect(partOf('src/server/store/outbox.ts')).toBe('store');
    expect(partOf('src/server/services/history/explain.ts')).toBe('services/history');
    expect(partOf('src/server/services/api-problem.ts')).toBe('services/api-problem.ts');
    expect(partOf('src/server/metrics.ts')).toBe('metrics.ts');
  });
});
