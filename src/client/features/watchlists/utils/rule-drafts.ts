import {
  alertRuleSchema,
  ruleKey,
  type AlertKind,
  type AlertRule,
} from '../../../../shared/alerts-api';

type Direction = 'up' | 'down' | 'both';

/** A rule as the form holds it: numbers as typed, so "7." or "" can be on screen and explained. */
export interface RuleDraft {
  kind: AlertKind;
  value: string;
  direction: Direction;
}

/** Every rule kind the server evaluates (alert-rules.ts), in the order the form offers them. */
export const RULE_KINDS: ReadonlyArray<{ kind: AlertKind; label: string }> = [
  { kind: 'active_change', label: 'Active score change' },
  { kind: 'tier_change', label: 'Tier change' },
  { kind: 'risk_threshold', label: 'Risk crosses a level' },
  { kind: 'breaking_event', label: 'Breaking event' },
  { kind: 'team_index_threshold', label: 'Team index crosses a level' },
];

export const kindLabel = (kind: AlertKind): string =>
  RULE_KINDS.find((k) => k.kind === kind)?.label ?? kind;

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

/** The field names of the API, in the form's words. */
const FIELD_WORDS: Record<string, string> = {
  min_abs_delta: 'The change',
  threshold: 'The level',
};

/**
 * The rules the drafts describe, checked with the server's own schema (the same bounds and
 * words), or a problem per draft: a bad value, or a rule that repeats an earlier one.
 */
export function rulesOf(drafts: readonly RuleDraft[]): {
  rules: AlertRule[];
  problems: (string | null)[];
} {
  const rules: AlertRule[] = [];
  const seen = new Map<string, number>();
  const problems = drafts.map((draft, index) => {
    const parsed = alertRuleSchema.safeParse(candidate(draft));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = String(issue?.path[0] ?? '');
      const words = issue?.message ?? 'This rule is not valid';
      if (words.endsWith('must be a number'))
        return `${FIELD_WORDS[field] ?? field} needs a number`;
      return FIELD_WORDS[field] ? words.replace(field, FIELD_WORDS[field]) : words;
    }
    const key = ruleKey(parsed.data);
    const earlier = seen.get(key);
    if (earlier !== undefined) return `The same as rule ${earlier + 1}: change it or remove one`;
    seen.set(key, index);
    rules.push(parsed.data);
    return null;
  });
  return { rules, problems };
}

const number = (value: number): string => String(value);

const TIER_WORDS: Record<Direction, string> = {
  up: 'moves up a tier (for example from Moderate to High)',
  down: 'moves down a tier (for example from High to Moderate)',
  both: 'changes tier, up or down,',
};

/** What a rule will do, as a plain sentence. */
export function ruleSentence(rule: AlertRule): string {
  switch (rule.kind) {
    case 'active_change':
      return `Alert when a country's active score moves by ${number(rule.min_abs_delta)} or more, up or down, between two batches.`;
    case 'tier_change':
      return `Alert when a country ${TIER_WORDS[rule.direction]} between two batches.`;
    case 'risk_threshold':
    case 'team_index_threshold': {
      const level = number(rule.threshold);
      const how =
        rule.direction === 'up'
          ? `rises to ${level} or above (from below ${level})`
          : rule.direction === 'down'
            ? `falls below ${level} (from ${level} or above)`
            : `crosses ${level}, up or down,`;
      const figure =
        rule.kind === 'risk_threshold'
          ? 'risk score'
          : 'team index (our weights, not the provider’s)';
      return `Alert when a country's ${figure} ${how} between two batches.`;
    }
    case 'breaking_event':
      return 'Alert when a breaking event is reported for a country between two batches.';
  }
}
