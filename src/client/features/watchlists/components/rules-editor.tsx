import { useId } from 'react';
import { WATCHLIST_RULES_MAX, type AlertKind } from '../../../../shared/alerts-api';
import {
  kindLabel,
  newDraft,
  RULE_KINDS,
  ruleSentence,
  rulesOf,
  type RuleDraft,
} from '../utils/rule-drafts';

const DIRECTIONS = {
  tier_change: [
    { value: 'both', label: 'Up or down' },
    { value: 'up', label: 'Up only (towards Critical)' },
    { value: 'down', label: 'Down only (towards Low)' },
  ],
  risk_threshold: [
    { value: 'up', label: 'Rising to it or above' },
    { value: 'down', label: 'Falling below it' },
    { value: 'both', label: 'Either way' },
  ],
} as const;
const LEVEL_DIRECTIONS = DIRECTIONS.risk_threshold;
/** Kinds with a level: the provider's risk, or the team index (issue 31). */
const withLevel = (kind: AlertKind): kind is 'risk_threshold' | 'team_index_threshold' =>
  kind === 'risk_threshold' || kind === 'team_index_threshold';

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
  const valueField =
    draft.kind === 'active_change' || withLevel(draft.kind) ? (
      <label>
        {draft.kind === 'active_change'
          ? 'Change of at least (points)'
          : draft.kind === 'risk_threshold'
            ? 'Risk level (0 to 100)'
            : 'Team index level (0 to 100)'}
        <input
          type="number"
          inputMode="decimal"
          step="any"
          min={draft.kind === 'active_change' ? 0.1 : 0}
          max={100}
          value={draft.value}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : `${id}-sentence`}
          onChange={(event) => onChange({ ...draft, value: event.target.value })}
        />
      </label>
    ) : null;
  const directionField =
    draft.kind === 'tier_change' || withLevel(draft.kind) ? (
      <label>
        Direction
        <select
          value={draft.direction}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : `${id}-sentence`}
          onChange={(event) =>
            onChange({ ...draft, direction: event.target.value as RuleDraft['direction'] })
          }
        >
          {(draft.kind === 'tier_change' ? DIRECTIONS.tier_change : LEVEL_DIRECTIONS).map((d) => (
            <option key={d.value} value={d.value}>
              {d.label}
            </option>
          ))}
        </select>
      </label>
    ) : null;
  return (
    <li className="rule">
      <fieldset>
        <legend>
          Rule {index + 1}: {kindLabel(draft.kind)}
        </legend>
        {valueField || directionField ? (
          <div className="rule-values">
            {valueField}
            {directionField}
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
          Remove rule {index + 1}
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
      <legend>Alert rules</legend>
      <p id={`${id}-count`} className="field-hint">
        {drafts.length} of {WATCHLIST_RULES_MAX} rules
        {full ? ': the most a list may have.' : '.'}{' '}
        {drafts.length === 0
          ? 'Without a rule this list never alerts.'
          : 'Each applies to every country of the list.'}
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
      <div className="rule-add" role="group" aria-label="Add a rule">
        {RULE_KINDS.map(({ kind, label }) => (
          <button
            key={kind}
            type="button"
            disabled={full || (kind === 'breaking_event' && hasBreaking)}
            onClick={() => add(kind)}
          >
            + {label}
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
