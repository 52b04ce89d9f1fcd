/*
 * The one error type of the BFF's refusals: any layer may raise one (a service finding the
 * question cannot be answered as asked, a limiter, a route's check), and the one error handler
 * (plugins/errors.ts) sends it as `{"ok": false, "error": "<plain words>"}` with its status and,
 * when the wait is known, `Retry-After`.
 */

/** A refusal with its HTTP status and plain words; `retryAfterMs` when the wait is known. */
export class ApiProblem extends Error {
  override name = 'ApiProblem';
  constructor(
    readonly status: number,
    message: string,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

/** A request refused before anything is spent: 400 with these words. */
export class BadRequest extends ApiProblem {
  override name = 'BadRequest';
  constructor(message: string) {
    super(400, message);
  }
}

/** What the request names does not exist (here, or any more): 404 with these words. */
export class NotFound extends ApiProblem {
  override name = 'NotFound';
  constructor(message: string) {
    super(404, message);
  }
}
