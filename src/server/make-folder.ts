import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The file-system calls makeFolder needs (the real ones unless a test stands in). `recursive` is
 * there so a stand-in can answer as Node would; makeFolder never asks for it.
 */
export interface FolderFs {
  mkdirSync(path: string, options: { recursive?: boolean; mode?: number }): unknown;
  existsSync(path: string): boolean;
  isDirectory(path: string): boolean;
}

const nodeFs: FolderFs = {
  mkdirSync,
  existsSync,
  isDirectory: (path) => statSync(path).isDirectory(),
};

export interface FolderOptions {
  /** Mode of every folder made (less the umask), as mkdir's; folders already there keep theirs. */
  mode?: number;
  fs?: FolderFs;
}

/**
 * `mkdir -p` whose error says why, one level at a time. Node's recursive mkdir reports ENOENT
 * when the real error is EROFS, EACCES or ENOSPC (nodejs/node#47098, #31481, #42808), so a
 * read-only DATA_DIR read "no such file or directory"; and where mkdir says ENOENT though the
 * parent exists (DATA_DIR=/proc/x) it tries again for ever, and start-up hung. Here each missing
 * level is made on its own and the error thrown is the system's own. In src/server, not in store/
 * or cache/: both make folders under DATA_DIR, and neither layer may import the other.
 */
export function makeFolder(dir: string, { mode, fs = nodeFs }: FolderOptions = {}): void {
  // `dir` itself is always tried: there already, it must be a folder, not a file.
  const levels = [dir];
  for (let at = dirname(dir); !fs.existsSync(at) && dirname(at) !== at; at = dirname(at)) {
    levels.unshift(at);
  }
  for (const level of levels) {
    try {
      fs.mkdirSync(level, { mode });
    } catch (error) {
      // There already, or made meanwhile by another process: as good as made here.
      if ((error as { code?: unknown }).code !== 'EEXIST' || !fs.isDirectory(level)) throw error;
    }
  }
}
