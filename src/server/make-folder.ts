import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/** The file-system calls makeFolder needs (the real ones unless a test stands in). */
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
 * `mkdir -p` whose error says why. Node's recursive mkdir reports ENOENT when the real error is
 * EROFS, EACCES or ENOSPC (nodejs/node#47098, #31481, #42808), so a read-only DATA_DIR read "no
 * such file or directory": after such an ENOENT each missing level is made on its own, and the
 * error thrown is the system's own. Here, not in store/ or cache/: both make folders under
 * DATA_DIR, and neither layer may import the other.
 */
export function makeFolder(dir: string, { mode, fs = nodeFs }: FolderOptions = {}): void {
  try {
    fs.mkdirSync(dir, { recursive: true, mode });
    return;
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
  }
  const missing: string[] = [];
  for (let at = dir; !fs.existsSync(at) && dirname(at) !== at; at = dirname(at)) {
    missing.unshift(at);
  }
  for (const level of missing) {
    try {
      fs.mkdirSync(level, { mode });
    } catch (error) {
      // Made meanwhile by another process: as good as made here.
      if ((error as { code?: unknown }).code !== 'EEXIST' || !fs.isDirectory(level)) throw error;
    }
  }
}
