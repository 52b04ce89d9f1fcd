import { describe, expect, it } from 'vitest';
import {
  fieldOfServerProblem,
  problemWords,
} from '../../src/client/features/watchlists/utils/field-errors';
import {
  draftOf,
  newDraft,
  RULE_KINDS,
  ruleSentence,
  rulesOf,
} from '../../src/client/features/watchlists/utils/rule-drafts';
import { alertRuleSchema, type AlertRule } from '../../src/shared/alerts-api';

describe('alert rules in the form', () => {
  it('offers every rule kind the shared schema accepts', () => {
    const schemaKinds = alertRuleSchema._zod.def.options
      .map((option) => option.shape.kind._zod.def.values[0])
      .sort();
    expect(RULE_KINDS.map((k) => k.kind).sort()).toEqual(schemaKinds);
  });

  it('says what each rule will do in a sentence with its values', () => {
    const sentences = (
      [
        { kind: 'active_change', min_abs_delta: 10 },
        { kind: 'tier_change', direction: 'both' },
        { kind: 'tier_change', direction: 'up' },
        { kind: 'risk_threshold', threshold: 70, direction: 'up' },
        { kind: 'risk_threshold', threshold: 62.5, direction: 'down' },
        { kind: 'risk_threshold', threshold: 50, direction: 'both' },
        { kind: 'breaking_event' },
      ] satisfies AlertRule[]
    ).map(ruleSentence);
    expect(sentences).toEqual([
      "Alert when a country's active score moves by 10 or more, up or down, between two batches.",
      'Alert when a country changes tier, up or down, between two batches.',
      'Alert when a country moves up a tier (for example from Moderate to High) between two batches.',
      "Alert when a country's risk score rises to 70 or above (from below 70) between two batches.",
      "Alert when a country's risk score falls below 62.5 (from 62.5 or above) between two batches.",
      "Alert when a country's risk score crosses 50, up or down, between two batches.",
      'Alert when a breaking event is reported for a country between two batches.',
    ]);
  });

  it('turns drafts back into the rules they came from', () => {
    const rules: AlertRule[] = [
      { kind: 'active_change', min_abs_delta: 7.5 },
      { kind: 'tier_change', direction: 'down' },
      { kind: 'risk_threshold', threshold: 80, direction: 'both' },
      { kind: 'breaking_event' },
    ];
    expect(rulesOf(rules.map(draftOf))).toEqual({ rules, problems: [null, null, null, null] });
  });

  it("checks values with the server's bounds, in the form's words", () => {
    const { rules, problems } = rulesOf([
      { ...newDraft('active_change'), value: '' },
      { ...newDraft('active_change'), value: '0' },
      { ...newDraft('risk_threshold'), value: '101' },
      { ...newDraft('risk_threshold'), value: 'abc' },
    ]);
    expect(rules).toEqual([]);
    expect(problems).toEqual([
      'The change needs a number',
      'The change must be at least 0.1',
      'The level must be from 0 to 100',
      'The level needs a number',
    ]);
  });

  it('refuses a rule that repeats an earlier one, naming it', () => {
    const { rules, problems } = rulesOf([
      newDraft('tier_change'),
      newDraft('active_change'),
      newDraft('tier_change'),
    ]);
    expect(rules).toHaveLength(2);
    expect(problems).toEqual([null, null, 'The same as rule 1: change it or remove one']);
  });
});

describe("the server's 400 beside its field", () => {
  it('finds the field the message names, or none', () => {
    expect(fieldOfServerProblem('countries: XKY is not a known country code')).toBe('countries');
    expect(fieldOfServerProblem('webhook_url must be an https:// URL')).toBe('webhook_url');
    expect(fieldOfServerProblem('rules.0.threshold: threshold must be from 0 to 100')).toBe(
      'rules',
    );
    expect(fieldOfServerProblem('name: name must not be empty')).toBe('name');
    expect(fieldOfServerProblem('names are …')).toBeNull();
    expect(fieldOfServerProblem('The watchlist was changed by someone else')).toBeNull();
  });
  it("words it for the person, without the API's field names", () => {
    expect(problemWords('countries: XKY is not a known country code')).toBe(
      'XKY is not a known country code',
    );
    expect(problemWords('webhook_url must be an https:// URL')).toBe(
      'The webhook URL must be an https:// URL',
    );
    expect(problemWords('name: name must not be empty')).toBe('The name must not be empty');
  });
});
