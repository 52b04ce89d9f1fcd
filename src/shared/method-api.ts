import { z } from 'zod/mini';

/**
 * The provider's method changes (issue 31): `/api/method-changes*`, and the method each batch,
 * point and answer carries. A batch whose `methodology_version` differs from the batch before is
 * a method change: scores are not comparable across it unless an admin says they are.
 */

export const methodChangeSchema = z.looseObject({
  /** The citable id of the batch that changed the method (GET /api/batches/:id). */
  batch_id: z.nullable(z.string()),
  as_of: z.string(),
  from: z.string(),
  to: z.string(),
  comparable: z.boolean(),
  decided_by: z.nullable(z.string()),
  decided_at: z.nullable(z.string()),
});
export type MethodChangeView = z.infer<typeof methodChangeSchema>;

export const methodChangeListSchema = z.looseObject({
  ok: z.literal(true),
  method_changes: z.array(methodChangeSchema),
});
export type MethodChangeList = z.infer<typeof methodChangeListSchema>;

/** `PUT /api/method-changes/:batchId` body: only `true` (a released rule cannot be held again). */
export const comparableBodySchema = z.strictObject({
  comparable: z.literal(true, { error: 'comparable must be true (the only decision there is)' }),
});

export const comparableResponseSchema = z.looseObject({
  ok: z.literal(true),
  method_change: methodChangeSchema,
  /** Alerts raised now by the rules the change held (0 when it was already comparable). */
  released_alerts: z.int(),
});

/** A method change as history answers, /api/changes and charts carry it. */
export const methodMarkSchema = z.looseObject({
  as_of: z.string(),
  from: z.string(),
  to: z.string(),
  comparable: z.boolean(),
});
export type MethodMark = z.infer<typeof methodMarkSchema>;

/** The method in force at `asOf`, from the changes (oldest first) and the method before them. */
export function methodAt(
  changes: ReadonlyArray<Pick<MethodChangeView, 'as_of' | 'from' | 'to'>>,
  asOf: string,
  fallback: string | null,
): string | null {
  let method = changes[0]?.from ?? fallback;
  const at = Date.parse(asOf);
  for (const change of changes) {
    if (Date.parse(change.as_of) <= at) method = change.to;
  }
  return method;
}

/** The changes strictly after `from` and at or before `to`: a comparison across them says so. */
export function changesBetween<T extends Pick<MethodChangeView, 'as_of'>>(
  changes: readonly T[],
  from: string,
  to: string,
): T[] {
  const start = Date.parse(from);
  const end = Date.parse(to);
  return changes.filter((c) => {
    const at = Date.parse(c.as_of);
    return at > start && at <= end;
  });
}
