import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CountrySummary } from '../../src/shared/bff-api.js';
import { HistoryAnswers } from '../../src/server/services/history/history-answers.js';
import { MoveExplanations } from '../../src/server/services/history/explain.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { batchRecord, countryRow, DAY, event } from '../fixtures/history.js';
import { openAppStore } from '../helpers/history-store.js';

/* Why it moved: a crafted move of security +14 and civil unrest +9, three breaking events. */
const T0 = Date.UTC(2026, 9, 1, 3);
const cat = (score: number, weight: number) => ({
  score,
  static: score / 2,
  active: score / 2,
  weight,
});

function row(risk: number, security: number, unrest: number, economic: number): CountrySummary {
  return {
    ...countryRow('AAA', risk),
    // Issue 33, point 4: the newer batch's confidence and source count go with the explanation.
    confidence: risk > 40 ? 19 : 80,
    source_count: risk > 40 ? 0 : 5,
    categories: {
      security: cat(security, 0.2),
      civil_unrest: cat(unrest, 0.15),
      economic: cat(economic, 0.1),
    },
  };
}

let store: HistoryStore;
beforeAll(async () => {
  store = await openAppStore();
  await store.recordBatch(batchRecord(T0, [row(40, 30, 20, 10)]));
  await store.recordBatch(batchRecord(T0 + DAY, [row(46, 44, 29, 10)]));
  await store.archiveEvents(
    'AAA',
    [
      event(T0 + 1000, 'Attack one', { breaking: true }),
      event(T0 + 2000, 'Attack two', { breaking: true }),
      event(T0 + 3000, 'Attack three', { breaking: true }),
      event(T0 + 4000, 'Talks'),
      event(T0 - 1000, 'Before the move', { breaking: true }),
    ],
    new Date(T0 + DAY),
  );
}, 60_000);
afterAll(() => store?.close());

describe('why a score moved', () => {
  it('names the categories that drove it, their weights, and the events between', async () => {
    const answer = (await new MoveExplanations(store, () =>
      new HistoryAnswers(store, () => store.coverage()).methodMarks(),
    ).explain('AAA', null, null)) as Record<string, unknown>;
    expect(answer.sentence).toBe(
      'Risk +6.0: security +14.0 (weight 20 %), civil unrest +9.0 (weight 15 %); 3 breaking events since',
    );
    expect(answer.categories).toEqual([
      { category: 'security', delta_score: 14, weight: 0.2, delta_static: 7, delta_active: 7 },
      {
        category: 'civil_unrest',
        delta_score: 9,
        weight: 0.15,
        delta_static: 4.5,
        delta_active: 4.5,
      },
      { category: 'economic', delta_score: 0, weight: 0.1, delta_static: 0, delta_active: 0 },
    ]);
    expect(answer).toMatchObject({ delta_risk: 6, breaking_events: 3 });
    expect(answer).toMatchObject({ confidence: 19, source_count: 0 });
    expect((answer.events as unknown[]).length).toBe(4);
  });
});
