import { readdirSync, readFileSync } from 'node:fs';

export interface Process {
  parent: number;
  /** Its command line split at NULs (a Chromium child rewrites its own as one string). */
  args: string[];
}

/** Every process on the machine, by pid, read from /proc. */
export function processes(): Map<number, Process> {
  const all = new Map<number, Process>();
  for (const name of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const parent = /^PPid:\s+(\d+)$/m.exec(readFileSync(`/proc/${name}/status`, 'utf8'))?.[1];
      const args = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      all.set(Number(name), { parent: Number(parent), args });
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return all;
}

/** The browsers Playwright started from this process (Debian's wrapper execs the binary). */
export function playwrightBrowsers(): Map<number, Process> {
  return new Map(
    [...processes()].filter(
      ([, { parent, args }]) => parent === process.pid && args.includes('--remote-debugging-pipe'),
    ),
  );
}
