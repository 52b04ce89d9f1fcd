import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  runReplicaTeamDay,
  type ReplicaTeamDayResult,
} from '../../scripts/bench/replica-team-day.js';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server.js';

/*
 * The bench's team day (50 analysts, 8 hours, Pro key: 50 requests an hour, the 10:00 batch in
 * the middle) through nginx, once in front of 1 replica and once in front of 3, each on a fresh
 * database; the wall clock of every process runs 600 times faster (scripts/bench/warped-clock.mjs),
 * so each day takes about 50 s. Three replicas must spend what one spends (within 10 %), never
 * hit the upstream's limit, and never show an analyst an error.
 */
const FACTOR = 600;
let postgres: PostgresServer;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(async () => {
  await postgres?.stop();
});

function summary(run: ReplicaTeamDayResult): string {
  return (
    `${run.replicas} replica(s): ${run.upstreamTotal} upstream requests ` +
    `(${run.perHour.map((h) => `${h.from} ${h.upstream}`).join(', ')}), ` +
    `${run.upstream429} 429s, ${run.replay.userErrors.length} user errors ` +
    `(${run.replay.userErrors
      .slice(0, 5)
      .map((e) => `${e.status} ${e.url}`)
      .join('; ')})`
  );
}

describe('a team day through nginx', () => {
  it('3 replicas spend what 1 spends (within 10 %), with no 429 and no user-visible error', async () => {
    const one = await runReplicaTeamDay({ replicas: 1, postgres, factor: FACTOR });
    const three = await runReplicaTeamDay({ replicas: 3, postgres, factor: FACTOR });
    const report = `${summary(one)}\n${summary(three)}`;

    // The workload really ran: every request of the day answered, both batches seen.
    for (const run of [one, three]) {
      expect(run.replay.requests, report).toBe(31_215);
      expect(run.replay.asOfSeen, report).toEqual([
        '2026-11-23T03:00:00.000Z',
        '2026-11-23T10:00:00.000Z',
      ]);
      expect(run.upstream429, report).toBe(0);
      expect(run.replay.userErrors, report).toEqual([]);
    }
    // One replica stays within the budget the bench sets for the day (at most 25 an hour).
    expect(Math.max(...one.perHour.map((h) => h.upstream)), report).toBeLessThanOrEqual(25);
    // Three replicas share one cache and one budget: within 10 % of one replica's total.
    expect(three.upstreamTotal, report).toBeLessThanOrEqual(Math.floor(one.upstreamTotal * 1.1));
    expect(Math.max(...three.perHour.map((h) => h.upstream)), report).toBeLessThanOrEqual(25);
  }, 400_000);
});
