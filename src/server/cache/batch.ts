/**
 * What the BFF knows about the upstream's batches. The data changes only when a batch runs, and
 * `as_of` names the batch; so an answer showing the newest `as_of` confirms every cached entry of
 * that batch at once, and an answer with a newer `as_of` makes every older entry outdated.
 */
export interface BatchState {
  latestAsOf: number | null;
  latestAsOfText: string | null;
  methodologyVersion: string | null;
  /** When we first saw `latestAsOf` (entries fetched before it, of older batches, are outdated). */
  firstSeenAt: number | null;
  /** When an upstream answer last showed `latestAsOf` to still be the newest. */
  confirmedAt: number | null;
}

export class BatchTracker {
  state: BatchState = {
    latestAsOf: null,
    latestAsOfText: null,
    methodologyVersion: null,
    firstSeenAt: null,
    confirmedAt: null,
  };

  /** Records an `as_of` seen in a fresh upstream answer; returns true when it is a new batch. */
  observe(asOfText: string, at: number, methodologyVersion?: string | null): boolean {
    const asOf = parseAsOf(asOfText);
    if (asOf === null) return false;
    const latest = this.state.latestAsOf;
    if (latest !== null && asOf < latest) return false;
    const isNew = latest === null || asOf > latest;
    this.state = {
      latestAsOf: asOf,
      latestAsOfText: asOfText,
      methodologyVersion: methodologyVersion ?? (isNew ? null : this.state.methodologyVersion),
      firstSeenAt: isNew ? at : this.state.firstSeenAt,
      confirmedAt: Math.max(at, this.state.confirmedAt ?? at),
    };
    return isNew;
  }

  restore(state: BatchState): void {
    this.state = { ...state };
  }
}

export function parseAsOf(text: string | null | undefined): number | null {
  if (!text) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}
