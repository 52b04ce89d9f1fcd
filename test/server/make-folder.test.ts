import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeFolder, type FolderFs } from '../../src/server/store/make-folder.js';
import { tempDataDir } from '../helpers/test-config.js';

/*
 * The store's folder under DATA_DIR is made with makeFolder so that a start-up on an unusable
 * folder says why (issue 18: start-up errors are always words, and true ones). Node's recursive
 * mkdir says ENOENT on a read-only file system (nodejs/node#47098); seen by hand on a read-only
 * tmpfs: "could not be opened: ENOENT: no such file or directory, mkdir '…/history'".
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
    expect(() => makeFolder('/srv/ro/data/history', readOnlyBelow('/srv/ro'))).toThrow(
      expect.objectContaining({ code: 'EROFS', message: expect.stringContaining('/srv/ro/data') }),
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
    expect(() => makeFolder(dir, racing)).not.toThrow();
    expect(existsSync(dir)).toBe(true);
  });
});
