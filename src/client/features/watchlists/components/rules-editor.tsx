import { useId } from 'react';
import type { ParseKeys } from 'i18next';
import { t } from '../../../lib/i18n';
import { WATCHLIST_RULES_MAX, type AlertKind } from '../../../../shared/alerts-api';
import {
  kindLabel,
  newDraft,
  RULE_KINDS,
  ruleSentence,
  rulesOf,
  type RuleDraft,
} from '../utils/rule-drafts';

const DIRECTIONS: Record<
  'tier_change' | 'risk_threshold',
  ReadonlyArray<{ value: RuleDraft['direction']; label: ParseKeys }>
> = {
  tier_change: [
    { value: 'both', label: 'watchlistRules.tierBoth' },
    { value: 'up', label: 'watchlistRules.tierUp' },
    { value: 'down', label: 'watchlistRules.tierDown' },
  ],
  risk_threshold: [
    { value: 'up', label: 'watchlistRules.levelUp' },
    { value: 'down', label: 'watchlistRules.levelDown' },
    { value: 'both', label: 'watchlistRules.levelBoth' },
  ],
};
const LEVEL_DIRECTIONS = DIRECTIONS.risk_threshold;
/** Kinds with a level: the provider's risk, or the team index (issue 31). */
const withLevel = (kind: AlertKind): kind is 'risk_threshold' | 'team_index_threshold' =>
  kind === 'risk_threshold' || kind === 'team_index_threshold';

/** What ties a rule's fields to its sentence, or to its problem while it has one. */
interface FieldTies {
  'aria-invalid': true | undefined;
  'aria-describedby': string;
}

/** The rule's number: the change of an active-change rule, or a level's value. */
function ValueField({
  draft,
  ties,
  onChange,
}: {
  draft: RuleDraft;
  ties: FieldTies;
  onChange: (next: RuleDraft) => void;
}) {
  return (
    <label>
      {draft.kind === 'active_change'
        ? t('watchlistRules.changeAtLeast')
        : draft.kind === 'risk_threshold'
          ? t('watchlistRules.riskLevel')
          : t('watchlistRules.teamLevel')}
      <input
        type="number"
        inputMode="decimal"
        step="any"
        min={draft.kind === 'active_change' ? 0.1 : 0}
        max={100}
        value={draft.value}
        {...ties}
        onChange={(event) => onChange({ ...draft, value: event.target.value })}
      />
    </label>
  );
}

/** Which way a tier change or a level's crossing counts. */
function DirectionField({
  draft,
  ties,
  onChange,
}: {
  draft: RuleDraft;
  ties: FieldTies;
  onChange: (next: RuleDraft) => void;
}) {
  return (
    <label>
      {t('watchlistRules.direction')}
      <select
        value={draft.direction}
        {...ties}
        onChange={(event) =>
          onChange({ ...draft, direction: event.target.value as RuleDraft['direction'] })
        }
      >
        {(draft.kind === 'tier_change' ? DIRECTIONS.tier_change : LEVEL_DIRECTIONS).map((d) => (
          <option key={d.value} value={d.value}>
            {t(d.label)}
          </option>
        ))}
      </select>
    </label>
  );
}

function RuleFields({
  draft,
  index,
  problem,
  onChange,
  onRemove,
}: {
  draft: RuleDraft;
  index: number;
  problem: string | null;
  onChange: (next: RuleDraft) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const { rules } = rulesOf([draft]);
  const sentence = rules[0] ? ruleSentence(rules[0]) : null;
  const ties: FieldTies = {
    'aria-invalid': problem ? true : undefined,
    'aria-describedby': problem ? `${id}-problem` : `${id}-sentence`,
  };
  const withValue = draft.kind === 'active_change' || withLevel(draft.kind);
  const withDirection = draft.kind === 'tier_change' || withLevel(draft.kind);
  return (
    <li className="rule">
      <fieldset>
        <legend>
          {t('watchlistRules.ruleLegend', { n: index + 1, kind: kindLabel(draft.kind) })}
        </legend>
        {withValue || withDirection ? (
          <div className="rule-values">
            {withValue ? <ValueField draft={draft} ties={ties} onChange={onChange} /> : null}
            {withDirection ? (
              <DirectionField draft={draft} ties={ties} onChange={onChange} />
            ) : null}
          </div>
        ) : null}
        {problem ? (
          <p id={`${id}-problem`} className="field-problem">
            {problem}
          </p>
        ) : (
          <p id={`${id}-sentence`} className="rule-sentence">
            {sentence}
          </p>
        )}
        <button type="button" className="rule-remove" onClick={onRemove}>
          {t('watchlistRules.remove', { n: index + 1 })}
        </button>
      </fieldset>
    </li>
  );
}

/**
 * A list's alert rules: every kind the server evaluates, its values, and a sentence saying what
 * each will do. At most WATCHLIST_RULES_MAX rules: the add buttons stop there.
 */
export function RulesEditor({
  drafts,
  onChange,
  problems,
  listProblem,
}: {
  drafts: readonly RuleDraft[];
  onChange: (next: RuleDraft[]) => void;
  /** One problem (or null) per draft. */
  problems: readonly (string | null)[];
  /** A problem with the rules as a whole (e.g. from the server). */
  listProblem: string | null;
}) {
  const id = useId();
  const full = drafts.length >= WATCHLIST_RULES_MAX;
  const hasBreaking = drafts.some((d) => d.kind === 'breaking_event');
  const add = (kind: AlertKind) => onChange([...drafts, newDraft(kind)]);
  return (
    <fieldset
      className="rules-editor"
      aria-describedby={`${id}-count${listProblem ? ` ${id}-problem` : ''}`}
    >
      <legend>{t('watchlistRules.heading')}</legend>
      <p id={`${id}-count`} className="field-hint">
        {t('watchlistRules.count', { n: drafts.length, count: WATCHLIST_RULES_MAX })}
        {full ? t('watchlistRules.full') : t('watchlistRules.notFull')}{' '}
        {drafts.length === 0 ? t('watchlistRules.noRule') : t('watchlistRules.eachApplies')}
      </p>
      {drafts.length > 0 ? (
        <ol className="rules">
          {drafts.map((draft, index) => (
            <RuleFields
              // Drafts have no identity of their own; the position is what the legend names.
              key={index}
              draft={draft}
              index={index}
              problem={problems[index] ?? null}
              onChange={(next) => onChange(drafts.map((d, i) => (i === index ? next : d)))}
              onRemove={() => onChange(drafts.filter((_, i) => i !== index))}
            />
          ))}
        </ol>
      ) : null}
      <div className="rule-add" role="group" aria-label={t('watchlistRules.addRule')}>
        {RULE_KINDS.map(({ kind }) => (
          <button
            key={kind}
            type="button"
            disabled={full || (kind === 'breaking_event' && hasBreaking)}
            onClick={() => add(kind)}
          >
            {t('watchlistRules.add', { kind: kindLabel(kind) })}
          </button>
        ))}
      </div>
      {listProblem ? (
        <p id={`${id}-problem`} className="field-problem">
          {listProblem}
        </p>
      ) : null}
    </fieldset>
  );
}
