import { useState, type FormEvent, type ReactNode } from 'react';
import {
  DEFAULT_RULES,
  WATCHLIST_COUNTRIES_MAX,
  WATCHLIST_NAME_MAX,
  type Watchlist,
  type WatchlistInput,
  type WebhookFormat,
} from '../../../../shared/alerts-api';
import { CountryPicker, type CountryChoices } from '../../../components/country-picker';
import { FormActions, FormField } from '../../../components/form-field';
import { OutputLanguageField } from '../../../components/output-language-field';
import { WebhookFormatField } from '../../../components/webhook-format-field';
import { isLanguage } from '../../../../shared/i18n/languages';
import { useFormProblems } from '../../../lib/use-form-problems';
import {
  fieldOfServerProblem,
  problemWords,
  type FieldProblems,
  type WatchlistField,
} from '../utils/field-errors';
import { draftOf, rulesOf, type RuleDraft } from '../utils/rule-drafts';
import { RulesEditor } from './rules-editor';
import { TryOnHistory } from './try-on-history';
import { t } from '../../../lib/i18n';

export type { CountryChoices };

const PENDING_COUNTRY = 'country_search';

function TextField({
  label,
  name,
  type = 'text',
  defaultValue,
  problem,
  maxLength,
  onEdit,
}: {
  label: string;
  name: WatchlistField;
  type?: 'text' | 'url' | 'email';
  defaultValue: string;
  problem: string | undefined;
  maxLength?: number;
  onEdit: () => void;
}) {
  return (
    <FormField label={label} problem={problem}>
      {(props) => (
        <input
          {...props}
          name={name}
          type={type}
          defaultValue={defaultValue}
          maxLength={maxLength}
          onChange={onEdit}
        />
      )}
    </FormField>
  );
}

interface WatchlistFormProps {
  initial: Watchlist | null;
  choices: CountryChoices;
  /** Whether the webhook's format can be chosen (on an existing list's settings). */
  withFormat: boolean;
  /** Whether webhook fields are shown at all (webhooks need an editor). */
  withWebhook?: boolean;
  submitLabel: string;
  /** Saves the list; a rejection is shown by the form. */
  onSave: (input: WatchlistInput) => Promise<unknown>;
  /** Further buttons beside the submit button. */
  children?: ReactNode;
}

/**
 * A watchlist's name, countries (chosen by name), alert rules, webhook and e-mail: the form of a
 * new list and of a list's settings. Every problem is shown next to its field and tied to it
 * (aria-describedby, aria-invalid), whether the form found it or the server's 400 names the
 * field; the first field with a problem gets the focus.
 */
export function WatchlistForm({
  initial,
  choices,
  withFormat,
  submitLabel,
  onSave,
  children,
  withWebhook = true,
}: WatchlistFormProps) {
  const [countries, setCountries] = useState<string[]>(() => [...(initial?.countries ?? [])]);
  const [drafts, setDrafts] = useState<RuleDraft[]>(() =>
    (initial?.rules ?? DEFAULT_RULES).map(draftOf),
  );
  const { formProps, problems, clear, check, save, actions } = useFormProblems<WatchlistField>();
  const rules = rulesOf(drafts);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (key: string) => String(data.get(key) ?? '').trim();
    const found = listProblems(text, countries);
    const rulesBad = rules.problems.some((p) => p !== null);
    if (!check(found, Object.keys(found).length === 0 && !rulesBad)) return;
    const input = inputOf(text, countries, rules.rules, initial);
    await save(() => onSave(input), {
      statuses: [400],
      fieldOf: fieldOfServerProblem,
      words: problemWords,
    });
  };

  return (
    <form {...formProps} onSubmit={(event) => void onSubmit(event)} className="settings-form">
      <TextField
        label={t('watchlists.name')}
        name="name"
        defaultValue={initial?.name ?? ''}
        maxLength={WATCHLIST_NAME_MAX}
        problem={problems.name}
        onEdit={() => clear('name')}
      />
      <CountryPicker
        label={t('watchlists.countries')}
        pendingName={PENDING_COUNTRY}
        choices={choices}
        chosen={countries}
        onChange={(next) => {
          setCountries(next);
          clear('countries');
        }}
        max={WATCHLIST_COUNTRIES_MAX}
        error={problems.countries ?? null}
      />
      <RulesEditor
        drafts={drafts}
        onChange={(next) => {
          setDrafts(next);
          clear('rules');
        }}
        problems={rules.problems}
        listProblem={problems.rules ?? null}
      />
      <TryOnHistory
        countries={countries}
        rules={rules.rules}
        rulesValid={rules.problems.every((p) => p === null)}
      />
      <DeliveryFields
        initial={initial}
        withWebhook={withWebhook}
        withFormat={withFormat}
        problems={problems}
        clear={clear}
      />
      <FormActions submitLabel={submitLabel} {...actions}>
        {children}
      </FormActions>
    </form>
  );
}

/** The name and countries as the form can check them before anything is sent. */
function listProblems(text: (key: string) => string, countries: readonly string[]): FieldProblems {
  const found: FieldProblems = {};
  if (text('name') === '') found.name = t('watchlists.needsName');
  const typed = text(PENDING_COUNTRY);
  if (typed !== '') {
    found.countries = t('watchlists.notAdded', { typed });
  } else if (countries.length === 0) {
    found.countries = t('watchlists.needsCountry');
  }
  return found;
}

/** Where the list's alerts go besides the inbox: a webhook (with its format) and an e-mail. */
function DeliveryFields({
  initial,
  withWebhook,
  withFormat,
  problems,
  clear,
}: {
  initial: Watchlist | null;
  withWebhook: boolean;
  withFormat: boolean;
  problems: FieldProblems;
  clear: (field: WatchlistField) => void;
}) {
  return (
    <>
      {withWebhook ? (
        <TextField
          label={initial ? t('watchlists.webhookUrl') : t('watchlists.webhookUrlOptional')}
          name="webhook_url"
          type="url"
          defaultValue={initial?.webhook?.url ?? ''}
          problem={problems.webhook_url}
          onEdit={() => clear('webhook_url')}
        />
      ) : null}
      {withFormat && withWebhook ? (
        <WebhookFormatField defaultValue={initial?.webhook?.format ?? 'standard'} />
      ) : null}
      <TextField
        label={initial ? t('watchlists.email') : t('watchlists.emailOptional')}
        name="email"
        type="email"
        defaultValue={initial?.email ?? ''}
        problem={problems.email}
        onEdit={() => clear('email')}
      />
      <OutputLanguageField defaultValue={initial?.language ?? 'en'} />
    </>
  );
}

/** What is sent: the form's fields, the chosen countries and the rules. */
function inputOf(
  text: (key: string) => string,
  countries: string[],
  rules: WatchlistInput['rules'],
  initial: Watchlist | null,
): WatchlistInput {
  const format = text('webhook_format');
  const language = text('language');
  return {
    name: text('name'),
    countries,
    rules,
    webhook_url: text('webhook_url') || null,
    webhook_format: (format || initial?.webhook?.format || 'standard') as WebhookFormat,
    email: text('email') || null,
    language: isLanguage(language) ? language : (initial?.language ?? 'en'),
  };
}
