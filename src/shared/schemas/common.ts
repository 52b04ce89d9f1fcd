import { z } from 'zod/mini';

/**
 * Upstream JSON is untrusted and may grow fields at any time (the API is additive within v1).
 * Objects keep unknown keys (`looseObject`); fields beyond the identity of a record are optional
 * and may be null, so a partial record still renders ("n/a") instead of failing a whole response.
 */
export const optionalNumber = z.nullish(z.number());
export const optionalInteger = z.nullish(z.int());
export const optionalString = z.nullish(z.string());
export const optionalBoolean = z.nullish(z.boolean());

/** `{ok: false, error}`: the error body of the upstream and of the BFF. */
export const errorBodySchema = z.looseObject({
  ok: z.literal(false),
  error: z.string(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/**
 * What each page of a BFF list answer carries beside its items: `next_cursor` is passed as
 * `cursor` for the next page, null on the last.
 */
export const cursorPageShape = {
  ok: z.literal(true),
  next_cursor: z.nullable(z.string()),
};
