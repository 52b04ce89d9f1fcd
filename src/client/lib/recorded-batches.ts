/**
 * Whether a country has a recorded batch before the one shown (the latest, or `asOf`): without
 * one there is no recorded change to explain. `history` is its `/api/history/country/:iso` answer.
 */
export function hasEarlierBatch(
  history: { data: { points: readonly { as_of: string }[] } },
  asOf: string | null,
): boolean {
  const upTo = asOf === null ? Infinity : Date.parse(asOf);
  return history.data.points.filter((p) => Date.parse(p.as_of) <= upTo).length >= 2;
}
