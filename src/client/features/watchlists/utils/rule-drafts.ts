import {
  alertRuleSchema,
  ruleKey,
  type AlertKind,
  type AlertRule,
} from '../../../../shared/alerts-api';
import type { ParseKeys } from 'i18next';
import { activeFormatLocale } from '../../../lib/format';
import { t } from '../../../lib/i18n';

type Direction = 'up' | 'down' | 'both';

/** A rule as the form holds it: numbers as typed, so "7." or "" can be on screen and explained. */
export interface RuleDraft {
  kind: AlertKind;
  value: string;
  direction: Direction;
}

/** Every rule kind the server evaluates (alert-rules.ts), in the order the form offers them. */
export const RULE_KINDS: ReadonlyArray<{ kind: AlertKind; label: ParseKeys }> = [
  { kind: 'active_change', label: 'watchlistRules.kindActive' },
  { kind: 'tier_change', label: 'watchlistRules.kindTier' },
  { kind: 'risk_threshold', label: 'watchlistRules.kindRisk' },
  { kind: 'breaking_event', label: 'watchlistRules.kindBreaking' },
  { kind: 'team_index_threshold', label: 'watchlistRules.kindTeam' },
];

/** A rule kind's name in the page's language. */
export const kindLabel = (kind: AlertKind): string => {
  const label = RULE_KINDS.find((k) => k.kind === kind)?.label;
  return label ? t(label) : kind;
};

/**
 * A number as a person typed it, in the page's language ("62.5", "62,5"). English keeps
 * `String` (exactly what was typed); the others go through Intl, as typed values have few
 * decimals.
 */
export function typedNumber(value: number): string {
  const locale = activeFormatLocale();
  if (locale === 'en-GB') return String(value);
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 6 }).format(value);
}

/** What a newly added rule starts with. */
export function newDraft(kind: AlertKind): RuleDraft {
  switch (kind) {
    case 'active_change':
      return { kind, value: '10', direction: 'both' };
    case 'risk_threshold':
    case 'team_index_threshold':
      return { kind, value: '70', direction: 'up' };
    default:
      return { kind, value: '', direction: 'both' };
  }
}

export function draftOf(rule: AlertRule): RuleDraft {
  switch (rule.kind) {
    case 'active_change':
      return { kind: rule.kind, value: String(rule.min_abs_delta), direction: 'both' };
    case 'tier_change':
      return { kind: rule.kind, value: '', direction: rule.direction };
    case 'risk_threshold':
    case 'team_index_threshold':
      return { kind: rule.kind, value: String(rule.threshold), direction: rule.direction };
    case 'breaking_event':
      return { kind: rule.kind, value: '', direction: 'both' };
  }
}

function candidate(draft: RuleDraft): unknown {
  const value = draft.value.trim() === '' ? Number.NaN : Number(draft.value);
  switch (draft.kind) {
    case 'active_change':
      return { kind: draft.kind, min_abs_delta: value };
    case 'tier_change':
      return { kind: draft.kind, direction: draft.direction };
    case 'risk_threshold':
    case 'team_index_threshold':
      return { kind: draft.kind, threshold: value, direction: draft.direction };
    case 'breaking_event':
      return { kind: draft.kind };
  }
}

type RuleIssue = NonNullable<
  ReturnType<typeof alertRuleSchema.safeParse>['error']
>['issues'][number];

/**
 * A value's problem in the form's words, from the issue the server's own schema found: the
 * change (`min_abs_delta`) or the level (`threshold`) missing or out of its bounds.
 */
function problemOf(issue: RuleIssue | undefined): string {
  const field = issue?.path[0];
  if (!issue || (field !== 'min_abs_delta' && field !== 'threshold')) {
    return t('watchlistRules.notValid');
  }
  const change = field === 'min_abs_delta';
  if (issue.code === 'invalid_type') {
    return change ? t('watchlistRules.changeNeedsNumber') : t('watchlistRules.levelNeedsNumber');
  }
  if (!change && (issue.code === 'too_small' || issue.code === 'too_big')) {
    return t('watchlistRules.levelRange', { min: typedNumber(0), max: typedNumber(100) });
  }
  if (issue.code === 'too_small') {
    return t('watchlistRules.changeMin', { min: typedNumber(Number(issue.minimum)) });
  }
  if (issue.code === 'too_big') {
    return t('watchlistRules.changeMax', { max: typedNumber(Number(issue.maximum)) });
  }
  return t('watchlistRules.notValid');
}

/**
 * The rules the drafts describe, checked with the server's own schema (the same bounds), or a
 * problem per draft in the page's language: a bad value, or a rule that repeats an earlier one.
 */
export function rulesOf(drafts: readonly RuleDraft[]): {
  rules: AlertRule[];
  problems: (string | null)[];
} {
  const rules: AlertRule[] = [];
  const seen = new Map<string, number>();
  const problems = drafts.map((draft, index) => {
    const parsed = alertRuleSchema.safeParse(candidate(draft));
    if (!parsed.success) return problemOf(parsed.error.issues[0]);
    const key = ruleKey(parsed.data);
    const earlier = seen.get(key);
    if (earlier !== undefined) return t('watchlistRules.sameAs', { n: earlier + 1 });
    seen.set(key, index);
    rules.push(parsed.data);
    return null;
  });
  return { rules, problems };
}

const TIER_SENTENCES: Record<Direction, ParseKeys> = {
  up: 'watchlistRules.sentenceTierUp',
  down: 'watchlistRules.sentenceTierDown',
  both: 'watchlistRules.sentenceTierBoth',
};
const LEVEL_SENTENCES: Record<'risk' | 'team', Record<Direction, ParseKeys>> = {
  risk: {
    up: 'watchlistRules.sentenceRiskUp',
    down: 'watchlistRules.sentenceRiskDown',
    both: 'watchlistRules.sentenceRiskBoth',
  },
  team: {
    up: 'watchlistRules.sentenceTeamUp',
    down: 'watchlistRules.sentenceTeamDown',
    both: 'watchlistRules.sentenceTeamBoth',
  },
};

/** What a rule will do, as a plain sentence. */
export function ruleSentence(rule: AlertRule): string {
  switch (rule.kind) {
    case 'active_change':
      return t('watchlistRules.sentenceActive', { value: typedNumber(rule.min_abs_delta) });
    case 'tier_change':
      return t(TIER_SENTENCES[rule.direction]);
    case 'risk_threshold':
    case 'team_index_threshold': {
      const figure = rule.kind === 'risk_threshold' ? 'risk' : 'team';
      return t(LEVEL_SENTENCES[figure][rule.direction], { level: typedNumber(rule.threshold) });
    }
    case 'breaking_event':
      return t('watchlistRules.sentenceBreaking');
  }
}
