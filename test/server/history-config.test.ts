import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/server/config.js';

describe('history configuration', () => {
  it('defaults: embedded store, keep everything, 30 min freshness, 03:00 and 10:00 UTC', () => {
    const config = parseConfig({});
    expect(config.history).toMatchObject({ databaseUrl: null, retentionDays: null });
    expect(config.data.freshness.freshMs).toBe(1_800_000);
    expect(config.data.freshness.batchHoursUtc).toEqual([3, 10]);
  });

  it('reads FRESH_SECONDS, BATCH_SCHEDULE_UTC, HISTORY_RETENTION_DAYS and DATABASE_URL', () => {
    const config = parseConfig({
      FRESH_SECONDS: '5',
      BATCH_SCHEDULE_UTC: '10:30, 03:00',
      HISTORY_RETENTION_DAYS: '365',
      DATABASE_URL: 'postgres://grd:s3cret-pw@db.internal:5432/grd',
    });
    expect(config.data.freshness.freshMs).toBe(5000);
    expect(config.data.freshness.batchHoursUtc).toEqual([3, 10.5]);
    expect(config.history?.retentionDays).toBe(365);
    expect(config.history?.databaseUrl?.reveal()).toContain('db.internal');
    // The URL's password never reaches a log line or a status body.
    expect(inspect(config)).not.toContain('s3cret-pw');
    expect(JSON.stringify(config)).not.toContain('s3cret-pw');
  });

  it.each([
    [{ FRESH_SECONDS: '4' }, /FRESH_SECONDS must be a whole number from 5/],
    [{ BATCH_SCHEDULE_UTC: '3am' }, /BATCH_SCHEDULE_UTC must be times of day/],
    [{ BATCH_SCHEDULE_UTC: '03:00,24:00' }, /BATCH_SCHEDULE_UTC/],
    [{ HISTORY_RETENTION_DAYS: '0' }, /HISTORY_RETENTION_DAYS must be a whole number from 1/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must be a postgres/],
  ])('refuses %o', (env, message) => {
    expect(() => parseConfig(env)).toThrow(ConfigError);
    expect(() => parseConfig(env)).toThrow(message);
  });

  it('replicas: set exactly when DATABASE_URL is, with their defaults and overrides', () => {
    expect(parseConfig({}).replicas).toBeNull();
    const url = 'postgres://grd@db.internal/grd';
    const defaults = parseConfig({ DATABASE_URL: url }).replicas;
    expect(defaults).toMatchObject({ leaseSeconds: 15, poolMax: 10 });
    expect(defaults?.replicaName).toMatch(/^.+-\d+$/);
    expect(
      parseConfig({
        DATABASE_URL: url,
        REPLICA_NAME: 'r2',
        LEADER_LEASE_SECONDS: '5',
        DATABASE_POOL_MAX: '4',
      }).replicas,
    ).toEqual({ replicaName: 'r2', leaseSeconds: 5, poolMax: 4 });
  });

  it.each([
    [{ REPLICA_NAME: 'r 1' }, /REPLICA_NAME must be 1 to 64 letters/],
    [{ LEADER_LEASE_SECONDS: '2' }, /LEADER_LEASE_SECONDS must be a whole number from 3 to 60/],
    [{ DATABASE_POOL_MAX: '1' }, /DATABASE_POOL_MAX must be a whole number from 2 to 100/],
  ])('refuses the replica setting %o', (env, message) => {
    expect(() => parseConfig(env)).toThrow(message);
  });
});
