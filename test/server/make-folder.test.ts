import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeFolder, type FolderFs } from '../../src/server/make-folder.js';
import { tempDataDir } from '../helpers/test-config.js';

/*
 * The store's folder under DATA_DIR is made with makeFolder so that a start-up on an unusable
 * folder says why (issue 18: start-up errors are always words, and true ones). Node's recursive
 * mkdir says ENOENT on a read-only file system (nodejs/node#47098); seen by hand on a read-only
 * tmpfs: "could not be opened: ENOENT: no such file or directory, mkdir '…/history'". The cache
 * file's folder (cache/persistence.ts) is made with it too, private (0700).
 */

/** A file system that is read-only below `root` and answers as Node's mkdir does there. */
function readOnlyBelow(root: string): FolderFs {
  const erofs = (path: string) =>
    Object.assign(new Error(`EROFS: read-only file system, mkdir '${path}'`), { code: 'EROFS' });
  return {
    mkdirSync: (path, options) => {
      if (options?.recursive) {
        throw Object.assign(new Error(`ENOENT: no such file or directory, mkdir '${path}'`), {
          code: 'ENOENT',
        });
      }
      throw erofs(path);
    },
    existsSync: (path) => path === root || !path.startsWith(root),
    isDirectory: () => true,
  };
}

/**
 * /proc: mkdir there says ENOENT though the parent exists, and Node's recursive mkdir then tries
 * again for ever (seen by hand: `DATA_DIR=/proc/x` hung start-up); asked for it, this throws.
 */
function procLike(): FolderFs {
  return {
    mkdirSync: (path, options) => {
      if (options.recursive) throw new Error(`a recursive mkdir '${path}' would never return`);
      throw Object.assign(new Error(`ENOENT: no such file or directory, mkdir '${path}'`), {
        code: 'ENOENT',
      });
    },
    existsSync: (path) => path === '/proc' || path === '/',
    isDirectory: () => true,
  };
}

describe('makeFolder', () => {
  it('makes every missing level, and a folder that exists is fine', () => {
    const base = tempDataDir('grd-folder-');
    const dir = join(base, 'a', 'b', 'history');
    makeFolder(dir);
    makeFolder(dir);
    expect(statSync(dir).isDirectory()).toBe(true);
  });

  it('a file in the way is the system’s own error', () => {
    const base = tempDataDir('grd-folder-');
    writeFileSync(join(base, 'data'), 'a file');
    expect(() => makeFolder(join(base, 'data', 'history'))).toThrow(
      expect.objectContaining({ code: 'ENOTDIR' }),
    );
  });

  it('on a read-only file system says EROFS, not the ENOENT of a recursive mkdir', () => {
    expect(() => makeFolder('/srv/ro/data/history', { fs: readOnlyBelow('/srv/ro') })).toThrow(
      expect.objectContaining({ code: 'EROFS', message: expect.stringContaining('/srv/ro/data') }),
    );
  });

  it('a file where the folder should be is the system’s own error too', () => {
    const base = tempDataDir('grd-folder-');
    writeFileSync(join(base, 'history'), 'a file');
    expect(() => makeFolder(join(base, 'history'))).toThrow(
      expect.objectContaining({ code: 'EEXIST' }),
    );
  });

  it('on /proc says ENOENT rather than never returning', () => {
    expect(() => makeFolder('/proc/x/history', { fs: procLike() })).toThrow(
      expect.objectContaining({ code: 'ENOENT', message: expect.stringContaining("'/proc/x'") }),
    );
  });

  it('a level made meanwhile by another process is as good as made here', () => {
    const base = tempDataDir('grd-folder-');
    const dir = join(base, 'history');
    const racing: FolderFs = {
      mkdirSync: (path, options) => {
        if (options?.recursive) throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
        mkdirSync(path);
        throw Object.assign(new Error('EEXIST'), { code: 'EEXIST' });
      },
      existsSync,
      isDirectory: (path) => statSync(path).isDirectory(),
    };
    expect(() => makeFolder(dir, { fs: racing })).not.toThrow();
    expect(existsSync(dir)).toBe(true);
  });

  it('every folder it makes gets the mode; one already there keeps its own', () => {
    const base = tempDataDir('grd-folder-');
    chmodSync(base, 0o755);
    const dir = join(base, 'a', 'b');
    makeFolder(dir, { mode: 0o700 });
    expect(modeOf(base)).toBe(0o755);
    expect([modeOf(join(base, 'a')), modeOf(dir)]).toEqual([0o700, 0o700]);
  });
});

const modeOf = (path: string) => statSync(path).mode & 0o777;
