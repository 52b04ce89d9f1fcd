/** The comparisons the panel offers, in the URL as `?changes=24h` (the default is left out). */
export const CHANGES_SINCE = ['previous', '24h', '7d'] as const;
export type ChangesSince = (typeof CHANGES_SINCE)[number];
export const DEFAULT_SINCE: ChangesSince = 'previous';

export const SINCE_LABELS: Record<ChangesSince, string> = {
  previous: 'Previous batch',
  '24h': '24 hours',
  '7d': '7 days',
};

export function parseSince(raw: string | null): ChangesSince {
  return (CHANGES_SINCE as readonly string[]).includes(raw ?? '')
    ? (raw as ChangesSince)
    : DEFAULT_SINCE;
}
