import { ruleKey, type AlertRule } from '../../../../shared/alerts-api';
import { ApiError } from '../../../lib/api-client';
import { plainWords } from '../../../lib/plain-words';
import { t } from '../../../lib/i18n';
import { typedNumber } from './rule-drafts';

const DIRECTION_WORDS = {
  up: 'watchlistRules.rising',
  down: 'watchlistRules.falling',
  both: 'watchlistRules.eitherWay',
} as const;

/** A rule in a few words, for a column heading: "Active change ≥ 10", "Risk crosses 70 (rising)". */
export function ruleLabel(rule: AlertRule): string {
  switch (rule.kind) {
    case 'active_change':
      return t('watchlistRules.labelActive', { value: typedNumber(rule.min_abs_delta) });
    case 'tier_change':
      return t('watchlistRules.labelTier', { direction: t(DIRECTION_WORDS[rule.direction]) });
    case 'risk_threshold':
      return t('watchlistRules.labelRisk', {
        value: typedNumber(rule.threshold),
        direction: t(DIRECTION_WORDS[rule.direction]),
      });
    case 'breaking_event':
      return t('watchlistRules.labelBreaking');
    case 'team_index_threshold':
      return t('watchlistRules.labelTeam', {
        value: typedNumber(rule.threshold),
        direction: t(DIRECTION_WORDS[rule.direction]),
      });
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
  return chosen.length > 0 ? chosen.map(typedNumber).join(t('watchlistRules.separator')) : null;
}

/**
 * Why a try failed, in plain words. The history store's limiter answers 429 (this browser asked
 * too often) or 503 (too many questions at once): both pass, so both say to try again shortly.
 */
export function backtestProblem(error: Error): string {
  if (error instanceof ApiError && error.status === 429) return t('watchlistRules.tooOften');
  if (error instanceof ApiError && error.status === 503) return t('watchlistRules.busy');
  // The server's words, as it sent them (its refusals are English); a sentence ends once.
  const message = plainWords(error.message);
  return `${t('watchlistRules.notTried', { message })}${/[.!?]$/.test(message) ? '' : '.'}`;
}
