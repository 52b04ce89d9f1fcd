import { useState, type FormEvent, type ReactNode } from 'react';
import {
  NEARBY_MAX_KM,
  SITE_KINDS,
  SITE_MIN_DELTA_MAX,
  SITE_NAME_MAX,
  SITE_REF_MAX,
  type SiteInput,
  type SiteKind,
} from '../../../../shared/sites-api';
import { CountryPicker, type CountryChoices } from '../../../components/country-picker';
import { FormActions, FormField, type FieldControlProps } from '../../../components/form-field';
import { t } from '../../../lib/i18n';
import { useFormProblems } from '../../../lib/use-form-problems';
import { checkDraft, ruleOf, ruleSentence, type SiteDraft } from '../utils/site-draft';
import { kindWord } from '../../../lib/site-kind-word';
import {
  fieldOfServerProblem,
  siteProblemWords,
  type FieldProblems,
  type SiteField,
} from '../utils/site-fields';

export type { CountryChoices };

const PENDING_COUNTRY = 'country_search';

/** The draft's typed-text fields, and the form fields whose problems they show. */
type TextKey = Exclude<keyof SiteDraft, 'kind' | 'iso' | 'alertOn'>;
const FIELD_OF: Partial<Record<TextKey, SiteField>> = {
  radius: 'radius_km',
  minDelta: 'min_delta',
};

/** A site field: its problem (as the schema or the server put it) shown in plain words. */
function Field({
  field,
  problem,
  ...props
}: {
  field: SiteField;
  label: string;
  hint?: string;
  problem: string | undefined;
  children: (props: FieldControlProps) => ReactNode;
}) {
  return <FormField {...props} problem={problem ? siteProblemWords(field, problem) : undefined} />;
}

interface SiteFormProps {
  initial: SiteDraft;
  withRule: boolean;
  choices: CountryChoices;
  /** The country the BFF found from the point (shown while no country is chosen). */
  placedIso?: string | null;
  submitLabel: string;
  /** Saves the site; a rejection is shown by the form. */
  onSave: (input: SiteInput) => Promise<unknown>;
  /** Further buttons beside the submit button. */
  children?: ReactNode;
}

/**
 * Every field of a site (`siteInputSchema`), checked with the schema the BFF checks with before
 * anything is sent; each problem is shown next to its field, whether the form found it or the
 * server's 400/409 names the field, and the first field with a problem gets the focus. With
 * `withRule`, the site rule too, and a sentence saying what it will do.
 */
export function SiteForm({
  initial,
  withRule,
  choices,
  placedIso,
  submitLabel,
  onSave,
  children,
}: SiteFormProps) {
  const [draft, setDraft] = useState(initial);
  const { formProps, problems, clear, check, save, actions } = useFormProblems<SiteField>();

  const edit = (field: SiteField, change: Partial<SiteDraft>) => {
    setDraft((current) => ({ ...current, ...change }));
    clear(field);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = String(new FormData(event.currentTarget).get(PENDING_COUNTRY) ?? '').trim();
    const checked = checkDraft(draft, withRule);
    const found: FieldProblems = checked.ok ? {} : checked.problems;
    if (typed !== '') {
      found.iso = t('sites.countryNotChosen', { typed });
    }
    if (!check(found, checked.ok && typed === '') || !checked.ok) return;
    const { input } = checked;
    await save(() => onSave(input), { statuses: [400, 409], fieldOf: fieldOfServerProblem });
  };

  const parts = { draft, problems, edit };
  const text = (key: TextKey, label: string, options: TextOptions = {}) => (
    <DraftText {...parts} draftKey={key} label={label} {...options} />
  );

  return (
    <form
      {...formProps}
      onSubmit={(event) => void onSubmit(event)}
      className="settings-form site-form"
    >
      <div className="site-form-grid">
        {text('name', t('sites.name'), { maxLength: SITE_NAME_MAX })}
        {text('ref', t('sites.refOwn'), { maxLength: SITE_REF_MAX })}
        <KindField {...parts} />
        {text('people', t('sites.peopleOptional'), { inputMode: 'numeric' })}
        {text('lat', t('sites.latitude'), { hint: t('sites.latitudeHint'), inputMode: 'decimal' })}
        {text('lng', t('sites.longitude'), {
          hint: t('sites.longitudeHint'),
          inputMode: 'decimal',
        })}
        {text('value', t('sites.valueOptional'), { inputMode: 'decimal' })}
        {text('currency', t('sites.currencyOptional'), {
          hint: t('sites.currencyHint'),
          maxLength: 3,
        })}
      </div>
      <CountryField {...parts} choices={choices} placedIso={placedIso} />
      {text('tags', t('sites.tagsOptional'), { hint: t('sites.tagsHint') })}
      {draft.kind === 'travel' ? <TripFields {...parts} /> : null}
      {withRule ? (
        <RuleFieldset draft={draft} edit={edit}>
          {text('radius', t('sites.radius'), {
            hint: t('sites.radiusHint', { max: NEARBY_MAX_KM }),
            inputMode: 'numeric',
          })}
          {text('minDelta', t('sites.minDelta'), {
            hint: t('sites.minDeltaHint', { max: SITE_MIN_DELTA_MAX }),
            inputMode: 'decimal',
          })}
        </RuleFieldset>
      ) : null}
      <FormActions submitLabel={submitLabel} {...actions}>
        {children}
      </FormActions>
    </form>
  );
}

interface PartProps {
  draft: SiteDraft;
  problems: FieldProblems;
  edit: (field: SiteField, change: Partial<SiteDraft>) => void;
}

function KindField({ draft, problems, edit }: PartProps) {
  return (
    <Field field="kind" label={t('sites.kind')} problem={problems.kind}>
      {(props) => (
        <select
          {...props}
          name="kind"
          value={draft.kind}
          onChange={(event) => edit('kind', { kind: event.target.value as SiteKind })}
        >
          {SITE_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {kindWord(kind)}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** A trip's dates: only a travel site has them. */
function TripFields({ draft, problems, edit }: PartProps) {
  return (
    <div className="site-form-grid">
      <Field field="from" label={t('sites.tripFrom')} problem={problems.from}>
        {(props) => (
          <input
            {...props}
            name="from"
            type="date"
            value={draft.from}
            onChange={(event) => edit('from', { from: event.target.value })}
          />
        )}
      </Field>
      <Field field="to" label={t('sites.tripTo')} problem={problems.to}>
        {(props) => (
          <input
            {...props}
            name="to"
            type="date"
            value={draft.to}
            onChange={(event) => edit('to', { to: event.target.value })}
          />
        )}
      </Field>
    </div>
  );
}

/** The site rule's switch, its thresholds (given as children) and what it will do, in words. */
function RuleFieldset({
  draft,
  edit,
  children,
}: Omit<PartProps, 'problems'> & { children: ReactNode }) {
  return (
    <fieldset className="rules-editor site-rule">
      <legend>{t('sites.ruleLegend')}</legend>
      <label className="inline-check">
        <input
          type="checkbox"
          name="alert_on"
          checked={draft.alertOn}
          onChange={(event) => edit('alert_on', { alertOn: event.target.checked })}
        />
        {t('sites.ruleOn')}
      </label>
      <div className="site-form-grid">{children}</div>
      <p className="rule-sentence" aria-live="polite">
        {ruleSentence(ruleOf(draft), draft.kind)}
      </p>
    </fieldset>
  );
}

interface TextOptions {
  hint?: string;
  maxLength?: number;
  inputMode?: 'decimal' | 'numeric';
}

/** One typed-text field of the draft, with its problem. */
function DraftText({
  draft,
  problems,
  edit,
  draftKey,
  label,
  ...options
}: PartProps & TextOptions & { draftKey: TextKey; label: string }) {
  const field = FIELD_OF[draftKey] ?? (draftKey as SiteField);
  return (
    <Field field={field} label={label} hint={options.hint} problem={problems[field]}>
      {(props) => (
        <input
          {...props}
          name={field}
          type="text"
          inputMode={options.inputMode}
          maxLength={options.maxLength}
          value={draft[draftKey]}
          onChange={(event) => edit(field, { [draftKey]: event.target.value })}
        />
      )}
    </Field>
  );
}

/** The country, chosen or found from the point, and which of the two it is. */
function CountryField({
  draft,
  problems,
  edit,
  choices,
  placedIso,
}: PartProps & { choices: CountryChoices; placedIso?: string | null }) {
  return (
    <>
      <CountryPicker
        label={t('sites.countryOptional')}
        pendingName={PENDING_COUNTRY}
        choices={choices}
        chosen={draft.iso}
        onChange={(next) => edit('iso', { iso: next })}
        max={1}
        error={problems.iso ? siteProblemWords('iso', problems.iso) : null}
      />
      <p className="field-hint site-country-hint">
        {draft.iso.length > 0
          ? t('sites.countryChosen')
          : placedIso
            ? t('sites.countryFound', { iso: placedIso })
            : t('sites.countryFromPoint')}
      </p>
    </>
  );
}
