import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmdirSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';

/**
 * One process per embedded store. PGlite does not stop a second process from opening the same
 * directory (both start, and corrupt it), so the store takes `<folder>.lock` first: a file made
 * with O_EXCL naming the holder (host, pid, the pid's start time). A second process sees it at
 * once and refuses; a holder that is gone (killed -9, crashed) leaves a lock the next start
 * takes over at once, without waiting for a timeout:
 * - same host: the holder is gone when its pid is not alive, or now belongs to a process that
 *   started at another time (pids are reused, e.g. pid 1 after a container restart); a second
 *   open in the same process is refused like any other;
 * - another host (a folder shared over the network, another container): pids cannot be checked
 *   there, so the holder refreshes the file's time every HEARTBEAT_MS and a lock not refreshed
 *   for STALE_MS is taken over.
 */

const HEARTBEAT_MS = 10_000;
const STALE_MS = 60_000;
/** A takeover in progress (its guard folder) older than this was left by a crash. */
const TAKEOVER_STALE_MS = 10_000;
/** A lock file this young with no readable holder is being written by its taker right now. */
const BEING_WRITTEN_MS = 5_000;

export interface LockHolder {
  host: string;
  pid: number;
  /** The pid's start time (Linux: /proc/<pid>/stat field 22); null where unknown. */
  started: string | null;
}

/** Another live process holds the store's folder; the message is one line naming both. */
export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
  constructor(
    readonly folder: string,
    readonly holder: LockHolder | null,
  ) {
    const who = holder
      ? `process ${holder.pid}${holder.host === hostname() ? '' : ` on ${holder.host}`}`
      : 'another process (starting at the same moment)';
    super(
      `The history store in ${folder} is in use by ${who}; only one process may use an ` +
        'embedded store. Stop that process, or give this one another DATA_DIR ' +
        '(several processes share a store through DATABASE_URL).',
    );
  }
}

export interface DataDirLock {
  readonly path: string;
  release(): void;
}

/** Takes the lock of `folder` (the store's directory), or throws DataDirLockedError. */
export function acquireDataDirLock(folder: string): DataDirLock {
  const path = `${folder}.lock`;
  const me: LockHolder = { host: hostname(), pid: process.pid, started: startTime(process.pid) };
  const text = JSON.stringify(me);
  // Twice: a stale lock is removed on the first pass and made ours on the second.
  for (let attempt = 0; attempt < 2; attempt++) {
    if (tryCreate(path, text)) return held(path, text);
    const found = readHolder(path);
    if (found === 'gone') continue;
    if (found === null) {
      if (ageMs(path) < BEING_WRITTEN_MS) throw new DataDirLockedError(folder, null);
    } else if (isAlive(found, path)) {
      throw new DataDirLockedError(folder, found);
    }
    takeOver(path, folder, found);
  }
  throw new DataDirLockedError(folder, null);
}

function tryCreate(path: string, text: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (error) {
    if ((error as { code?: string }).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** The holder named in the file; null when unreadable, 'gone' when the file no longer exists. */
function readHolder(path: string): LockHolder | null | 'gone' {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return 'gone';
    throw error;
  }
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (typeof value.pid === 'number' && typeof value.host === 'string') {
      return {
        host: value.host,
        pid: value.pid,
        started: typeof value.started === 'string' ? value.started : null,
      };
    }
  } catch {
    // A half-written or foreign file: judged by its age below.
  }
  return null;
}

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return Infinity;
  }
}

function isAlive(holder: LockHolder, path: string): boolean {
  if (holder.host !== hostname()) return ageMs(path) < STALE_MS;
  // Our own pid counts too: the start time tells this process (a second open of one folder)
  // from a previous life of its pid (pid 1 of a restarted container).
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: alive, owned by another user.
    if ((error as { code?: string }).code !== 'EPERM') return false;
  }
  const started = startTime(holder.pid);
  return holder.started === null || started === null || started === holder.started;
}

/**
 * Removes a stale lock. Only one process at a time may do so (the guard folder, made with
 * mkdir's atomic create), and it removes the file only if it still names the holder judged
 * stale: two processes starting over one stale lock cannot both end up holding it.
 */
function takeOver(path: string, folder: string, judged: LockHolder | null): void {
  const guard = `${path}.takeover`;
  try {
    mkdirSync(guard);
  } catch (error) {
    if ((error as { code?: string }).code !== 'EEXIST') throw error;
    if (ageMs(guard) < TAKEOVER_STALE_MS) throw new DataDirLockedError(folder, null);
    // Left by a process that died mid-takeover: clear it; the next start retries.
    rmdirSync(guard);
    throw new DataDirLockedError(folder, null);
  }
  try {
    const now = readHolder(path);
    if (now === 'gone') return;
    if (JSON.stringify(now) !== JSON.stringify(judged)) throw new DataDirLockedError(folder, now);
    // Moved aside, then dropped: the path is free for tryCreate's O_EXCL.
    const aside = `${path}.stale-${process.pid}`;
    renameSync(path, aside);
    unlinkSync(aside);
  } finally {
    rmdirSync(guard);
  }
}

function held(path: string, text: string): DataDirLock {
  const beat = setInterval(() => {
    try {
      const now = new Date();
      utimesSync(path, now, now);
    } catch {
      // A failing folder shows in the store's health; the lock keeps its last time.
    }
  }, HEARTBEAT_MS);
  beat.unref();
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    clearInterval(beat);
    process.off('exit', release);
    try {
      // Only our own lock: never one another process took over meanwhile.
      if (readFileSync(path, 'utf8') === text) unlinkSync(path);
    } catch {
      // Already gone.
    }
  };
  // An exit that skips close() (a start-up failure) still frees the folder at once.
  process.on('exit', release);
  return { path, release };
}

/** The start time of `pid` in clock ticks since boot (Linux); null elsewhere or when gone. */
function startTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (in parentheses, which may hold spaces): state is field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}
