import { describe, expect, it } from 'vitest';
import { recordedChangeOf } from '../../src/server/services/rendering/recorded-change.js';

/* Issue 32, point 1: the country frame's change recorded here, as the SPA's header shows it. */
const AS_OF = '2026-11-30T03:00:00Z';

/** A fake of MoveExplanations.explain that answers `move` and counts the questions. */
function explaining(move: object | Error) {
  const asked: string[] = [];
  return {
    asked,
    explanations: {
      explain: async (iso: string, from: Date | null, to: Date | null) => {
        if (from !== null || to !== null) throw new Error('the frame asks about the latest move');
        asked.push(iso);
        if (move instanceof Error) throw move;
        return move;
      },
    },
  };
}

const move = (over: object = {}) => ({
  to_batch: { as_of: '2026-11-30T03:00:00.000Z' },
  delta_risk: 0.25,
  method_changes: [],
  ...over,
});

describe('the change recorded here, for a country frame', () => {
  it('is the latest move when its newer batch is the page’s, asked once per country and batch', async () => {
    const { explanations, asked } = explaining(move());
    const changeOf = recordedChangeOf(explanations);
    const [a, b] = await Promise.all([changeOf('UKR', AS_OF), changeOf('UKR', AS_OF)]);
    expect([a, b]).toEqual([0.25, 0.25]);
    expect(await changeOf('UKR', AS_OF)).toBe(0.25);
    expect(asked).toEqual(['UKR']);
  });

  it('is null for another batch, across a method change, without an answer or a store', async () => {
    const cases: Array<[object | Error, number | null]> = [
      [move({ to_batch: { as_of: '2026-11-29T10:00:00Z' } }), null],
      [move({ method_changes: [{ comparable: false }] }), null],
      [move({ method_changes: [{ comparable: true }] }), 0.25],
      [move({ delta_risk: null }), null],
      [new Error('there is no recorded batch before the one compared'), null],
    ];
    for (const [answer, expected] of cases) {
      const { explanations } = explaining(answer);
      expect(await recordedChangeOf(explanations)('UKR', AS_OF)).toBe(expected);
    }
    expect(await recordedChangeOf(null)('UKR', AS_OF)).toBeNull();
    expect(await recordedChangeOf(explaining(move()).explanations)('UKR', 12)).toBeNull();
  });

  it('keeps a miss a minute rather than asking the store for every page', async () => {
    const { explanations, asked } = explaining(
      move({ to_batch: { as_of: '2026-11-29T10:00:00Z' } }),
    );
    const changeOf = recordedChangeOf(explanations);
    expect(await changeOf('UKR', AS_OF)).toBeNull();
    // The miss is kept a minute (the batch is usually recorded within seconds): not asked now.
    expect(await changeOf('UKR', AS_OF)).toBeNull();
    expect(asked).toEqual(['UKR']);
    expect(await changeOf('SDN', AS_OF)).toBeNull();
    expect(asked).toEqual(['UKR', 'SDN']);
  });
});
