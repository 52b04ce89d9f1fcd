import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * One full garbage collection, for after a one-off burst of allocation (the demo seed leaves
 * 150–190 MB of dead objects that V8 keeps until the next full collection, which an idle
 * process may never run). Node exposes `gc` only behind --expose-gc; the flag set at run time
 * reaches a new context's global.
 */
export function releaseMemory(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
}
