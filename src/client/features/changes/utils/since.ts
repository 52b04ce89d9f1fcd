import { t } from '../../../lib/i18n';
/** The comparisons the panel offers, in the URL as `?changes=24h` (the default is left out). */
export const CHANGES_SINCE = ['previous', '24h', '7d'] as const;
export type ChangesSince = (typeof CHANGES_SINCE)[number];
export const DEFAULT_SINCE: ChangesSince = 'previous';

const SINCE_KEYS = {
  previous: 'changes.previous',
  '24h': 'changes.hours24',
  '7d': 'changes.days7',
} as const;

/** A comparison's name in the page's language ("Previous batch"). */
export function sinceLabel(since: ChangesSince): string {
  return t(SINCE_KEYS[since]);
}

export function parseSince(raw: string | null): ChangesSince {
  return (CHANGES_SINCE as readonly string[]).includes(raw ?? '')
    ? (raw as ChangesSince)
    : DEFAULT_SINCE;
}
