import { ruleKey, type AlertRule } from '../../../../shared/alerts-api';
import { ApiError } from '../../../lib/api-client';
import { plainWords } from '../../../lib/plain-words';

const DIRECTION_WORDS = { up: 'rising', down: 'falling', both: 'either way' } as const;

/** A rule in a few words, for a column heading: "Active change ≥ 10", "Risk crosses 70 (rising)". */
export function ruleLabel(rule: AlertRule): string {
  switch (rule.kind) {
    case 'active_change':
      return `Active change ≥ ${rule.min_abs_delta}`;
    case 'tier_change':
      return `Tier change (${DIRECTION_WORDS[rule.direction]})`;
    case 'risk_threshold':
      return `Risk crosses ${rule.threshold} (${DIRECTION_WORDS[rule.direction]})`;
    case 'breaking_event':
      return 'Breaking event';
    case 'team_index_threshold':
      return `Team index crosses ${rule.threshold} (${DIRECTION_WORDS[rule.direction]})`;
  }
}

/** The server names rules by key (`active_change:10`); the label of the rule tried, else the key. */
export function labelOfKey(key: string, rules: readonly AlertRule[]): string {
  const rule = rules.find((r) => ruleKey(r) === key);
  return rule ? ruleLabel(rule) : key;
}

/** The active-change thresholds chosen, to show beside the suggested one ("10, 25" or null). */
export function chosenActiveThresholds(rules: readonly AlertRule[]): string | null {
  const chosen = rules.flatMap((r) => (r.kind === 'active_change' ? [r.min_abs_delta] : []));
  return chosen.length > 0 ? chosen.join(', ') : null;
}

/**
 * Why a try failed, in plain words. The history store's limiter answers 429 (this browser asked
 * too often) or 503 (too many questions at once): both pass, so both say to try again shortly.
 */
export function backtestProblem(error: Error): string {
  if (error instanceof ApiError && error.status === 429) {
    return 'This browser has asked the history store too often in the last minute. Try again within a minute.';
  }
  if (error instanceof ApiError && error.status === 503) {
    return 'The history store is busy answering other questions right now. Try again in a moment.';
  }
  const message = plainWords(error.message);
  return `The rules could not be tried on history: ${message}${/[.!?]$/.test(message) ? '' : '.'}`;
}
