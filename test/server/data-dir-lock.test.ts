import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError } from '../../src/server/store/data-dir-lock.js';
import { tempDataDir } from '../helpers/test-config.js';

/*
 * The lock of an embedded store's folder on real files: who holds it, and when a lock left
 * behind is taken over at once (store-lock.test.ts runs two real processes).
 */
const folder = (): string => join(tempDataDir('grd-lockfile-'), 'history');
const holderFile = (path: string, holder: object): void =>
  writeFileSync(`${path}.lock`, JSON.stringify(holder));

describe('the data-dir lock', () => {
  it('refuses a second open, in this process too, until the first releases', () => {
    const dir = folder();
    const lock = acquireDataDirLock(dir);
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
    expect(() => acquireDataDirLock(dir)).toThrow(`in use by process ${process.pid}`);
    lock.release();
    expect(existsSync(`${dir}.lock`)).toBe(false);
    acquireDataDirLock(dir).release();
  });

  it('takes over at once a lock whose process is gone', () => {
    const dir = folder();
    const gone = spawnSync(process.execPath, ['-e', 'console.log(process.pid)']);
    const pid = Number(gone.stdout.toString());
    holderFile(dir, { host: hostname(), pid, started: null });
    const lock = acquireDataDirLock(dir);
    expect(JSON.parse(readFileSync(`${dir}.lock`, 'utf8'))).toMatchObject({ pid: process.pid });
    lock.release();
  });

  it('takes over a lock whose pid now belongs to a process started at another time', () => {
    const dir = folder();
    // This live pid, but not this process's start: a previous life of the pid.
    holderFile(dir, { host: hostname(), pid: process.pid, started: '1' });
    acquireDataDirLock(dir).release();
  });

  it('on another host: refused while refreshed, taken over once not refreshed for a minute', () => {
    const dir = folder();
    holderFile(dir, { host: 'another-host', pid: 1, started: null });
    expect(() => acquireDataDirLock(dir)).toThrow('in use by process 1 on another-host');
    const old = new Date(Date.now() - 61_000);
    utimesSync(`${dir}.lock`, old, old);
    acquireDataDirLock(dir).release();
  });
});
