import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  runReplicaTeamDay,
  type ReplicaTeamDayResult,
} from '../../scripts/bench/replica-team-day.js';
import { runTeamDay, TEAM_DAY_DEFAULTS, teamDayVisits } from '../../scripts/bench/team-day.js';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server.js';

/*
 * The bench's team day (50 analysts, 8 hours, Pro key: 50 requests an hour, the 10:00 batch in
 * the middle) through nginx in front of 3 replicas on one database, the wall clock of every
 * process running 600 times faster (scripts/bench/warped-clock.mjs), so the day takes about
 * 50 s. Three replicas must spend what one spends (within 10 %), never hit the upstream's limit,
 * and never show an analyst an error.
 *
 * The reference is one BFF on the bench's own virtual clock (scripts/bench/team-day.ts, driven
 * by inject), given the same requests at the moments the replay really sent them. The warped
 * clock does not wait for a busy machine: at 600× one real second is ten virtual minutes, so a
 * loaded machine sends requests later than their visits' moments, into later hours and batches
 * (on one loaded run 12:00 and 13:00 had no requests and one BFF's seeded day, 22 requests, was
 * no longer the day the replicas had; on another, requests went out up to 11 virtual hours late,
 * and 54 minutes late even at 150×). On a quiet machine the two days are the same.
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
    const three = await runReplicaTeamDay({ replicas: 3, postgres, factor: FACTOR });
    const one = await runTeamDay({}, three.replay.sent);
    const lateBy = Math.round(three.replay.maxRequestLagMs / 60_000);
    const report =
      `1 BFF: ${one.upstreamTotal} upstream requests ` +
      `(${one.perHour.map((h) => `${h.from} ${h.upstream}`).join(', ')})\n${summary(three)} ` +
      `(requests up to ${lateBy} virtual min after their visits' moments)`;

    // The workload really ran: every request of the day answered, both batches seen.
    expect(three.replay.requests, report).toBe(one.requests);
    expect(one.requests, report).toBe(
      teamDayVisits(TEAM_DAY_DEFAULTS).flatMap((visit) => visit.urls).length,
    );
    expect(three.replay.asOfSeen, report).toEqual(one.asOfSeen);
    expect(one.asOfSeen).toEqual(
      expect.arrayContaining(['2026-11-23T03:00:00.000Z', '2026-11-23T10:00:00.000Z']),
    );
    for (const run of [one, three]) {
      expect(run.upstream429, report).toBe(0);
    }
    expect(one.userErrors, report).toEqual([]);
    expect(three.replay.userErrors, report).toEqual([]);
    // Three replicas share one cache and one budget: within 10 % of one BFF's total, and the
    // bench's hourly target (at most 25) holds for both.
    expect(three.upstreamTotal, report).toBeLessThanOrEqual(Math.floor(one.upstreamTotal * 1.1));
    for (const run of [one, three]) {
      expect(Math.max(...run.perHour.map((h) => h.upstream)), report).toBeLessThanOrEqual(25);
    }
  }, 600_000);
});
