import { SINCE_BATCH_OF, type AlertNumbers, type AlertRule } from '../../../shared/alerts-api.js';
import { tierChangeMessage } from './tier-change.js';

/** What a rule looks at for one country: its numbers in this batch and the one before. */
export interface RuleInput {
  before: AlertNumbers | null;
  after: AlertNumbers;
  /** Breaking events of the country archived between the two batches, newest first. */
  breaking: ReadonlyArray<{ headline: string; source: string | null }>;
  /**
   * When the previous batch was recorded (ISO); `before` is from an older one when that batch
   * lacks the country (jobs/alert-before.ts), and the words then name the batch compared with.
   */
  previousAsOf?: string;
}

const one = (value: number): string => value.toFixed(1);
/** A change with its sign and one decimal: "+6.0", "−13.2". */
export const signed = (value: number): string => `${value >= 0 ? '+' : '−'}${one(Math.abs(value))}`;

/** What an active move is measured from, in words. */
function since(before: AlertNumbers, previousAsOf: string | undefined): string {
  if (previousAsOf === undefined || before.as_of === previousAsOf)
    return 'since the previous batch';
  return `${SINCE_BATCH_OF} ${before.as_of.slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * Whether `rule` fires, and why in words (null: it does not). Every rule but the breaking-event
 * rule compares two consecutive batches, so the first batch of a country fires nothing.
 */
export function evaluateRule(rule: AlertRule, input: RuleInput): string | null {
  const { before, after } = input;
  switch (rule.kind) {
    case 'active_change': {
      if (before?.active == null || after.active == null) return null;
      const delta = after.active - before.active;
      if (Math.abs(delta) < rule.min_abs_delta) return null;
      return (
        `Active ${signed(delta)} (${one(before.active)} → ${one(after.active)}) ` +
        `${since(before, input.previousAsOf)}: at least ${rule.min_abs_delta} either way`
      );
    }
    case 'tier_change':
      return tierChangeMessage(rule.direction, before, after);
    case 'risk_threshold': {
      if (before?.risk == null || after.risk == null) return null;
      const crossedUp = before.risk < rule.threshold && after.risk >= rule.threshold;
      const crossedDown = before.risk >= rule.threshold && after.risk < rule.threshold;
      const fires =
        (crossedUp && rule.direction !== 'down') || (crossedDown && rule.direction !== 'up');
      if (!fires) return null;
      return (
        `Risk crossed ${rule.threshold} ${crossedUp ? 'upwards' : 'downwards'}: ` +
        `${one(before.risk)} → ${one(after.risk)}`
      );
    }
    case 'team_index_threshold': {
      if (before?.team == null || after.team == null) return null;
      const crossedUp = before.team < rule.threshold && after.team >= rule.threshold;
      const crossedDown = before.team >= rule.threshold && after.team < rule.threshold;
      const fires =
        (crossedUp && rule.direction !== 'down') || (crossedDown && rule.direction !== 'up');
      if (!fires) return null;
      return (
        `Team index crossed ${rule.threshold} ${crossedUp ? 'upwards' : 'downwards'}: ` +
        `${one(before.team)} → ${one(after.team)}`
      );
    }
    case 'breaking_event': {
      const [first, ...rest] = input.breaking;
      if (!first) return null;
      const source = first.source ? ` (${first.source})` : '';
      const more = rest.length > 0 ? ` and ${rest.length} more` : '';
      return `Breaking event: ${first.headline}${source}${more}`;
    }
    default: {
      // A rule stored by another version of this code: its list fails alone (the evaluator
      // notes it and goes on), rather than being silently skipped.
      const unknown: never = rule;
      throw new Error(`unknown rule kind ${JSON.stringify((unknown as { kind?: unknown }).kind)}`);
    }
  }
}

/** A rule that fired for a country in a batch, and why. */
export interface Firing {
  iso: string;
  rule: AlertRule;
  input: RuleInput;
  message: string;
}

/**
 * Every rule that fires for each listed country with numbers in the batch (`inputOf` null: the
 * country is not in it). The one path from numbers to alerts: the live evaluation and the
 * backtest both take it, so a backtest and a live evaluation of the same batches cannot disagree.
 */
export function* firings(
  countries: readonly string[],
  rules: readonly AlertRule[],
  inputOf: (iso: string) => RuleInput | null,
): Generator<Firing> {
  for (const iso of countries) {
    const input = inputOf(iso);
    if (!input) continue;
    for (const rule of rules) {
      const message = evaluateRule(rule, input);
      if (message !== null) yield { iso, rule, input, message };
    }
  }
}
