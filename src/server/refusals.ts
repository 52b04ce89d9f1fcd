/*
 * Refusals any layer may raise (a service finding the question cannot be answered as asked);
 * the routes turn them into `{ok: false, error}` with their status.
 */

/** A request the BFF refuses before spending anything: 400 with this message. */
export class BadRequest extends Error {
  override name = 'BadRequest';
}

/** What the request names does not exist (here, or any more): 404 with this message. */
export class NotFound extends Error {
  override name = 'NotFound';
}
