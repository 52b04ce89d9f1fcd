/** What an error says of itself: drivers put a code and a message; Emscripten a name. */
export interface ErrorFacts {
  code?: unknown;
  message?: unknown;
  name?: unknown;
}

/**
 * `error` and what it wraps, outermost first (drizzle wraps the driver's error in its own, and
 * ours wrap drizzle's), at most five deep so a cycle of causes cannot loop.
 */
export function* causesOf(error: unknown): Generator<ErrorFacts & object> {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    if (typeof e !== 'object') return;
    yield e;
    e = (e as { cause?: unknown }).cause;
  }
}
