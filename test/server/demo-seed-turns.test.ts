import { describe, expect, it } from 'vitest';
import { seedDemoHistory } from '../../src/server/compose/demo.js';
import type { BatchRecord } from '../../src/server/store/batches.js';

/*
 * Issue 32, point 6: the demo seed yields to requests. A request that arrives while a batch is
 * written (here: a callback queued for the event loop's next check phase, as a socket's data
 * is) runs before the seed's next piece of work, the collection every tenth batch included:
 * answered after one piece rather than behind two (a batch written and a full collection were
 * about 45 + 75 ms, npm run bench's start-up section).
 */
describe('the demo seed between its pieces of work', () => {
  it('answers what arrived during a batch before the next batch and before each collection', async () => {
    const order: string[] = [];
    let written = 0;
    const store = {
      batches: () => Promise.resolve([]),
      recordBatch: (record: BatchRecord) => {
        written += 1;
        const which = written;
        order.push(`write ${which}`);
        setImmediate(() => order.push(`request during ${which}`));
        expect(record.source).toBe('demo_seed');
        return Promise.resolve({ recorded: true, batchId: which });
      },
    };
    const added = await seedDemoHistory(
      store,
      Date.parse('2026-12-01T12:00:00Z'),
      () => written >= 20,
      () => order.push(`collect after ${written}`),
    );
    expect(added).toBe(20);
    const at = (entry: string) => order.indexOf(entry);
    for (const batch of [10, 20]) {
      expect(at(`request during ${batch}`)).toBeGreaterThan(at(`write ${batch}`));
      expect(at(`request during ${batch}`)).toBeLessThan(at(`collect after ${batch}`));
    }
    for (let batch = 1; batch < 20; batch += 1) {
      expect(at(`request during ${batch}`)).toBeLessThan(at(`write ${batch + 1}`));
    }
    expect(order.filter((entry) => entry.startsWith('collect'))).toEqual([
      'collect after 10',
      'collect after 20',
    ]);
  });
});
