import { useState } from 'react';
import { WEBHOOK_FORMAT_OPTIONS, type WebhookFormat } from '../../shared/alerts-api';
import { FormField } from './form-field';
import { t } from '../lib/i18n';

/** Each format's name and description in the page's language (the ids are the API's). */
const FORMAT_WORDS = {
  standard: { label: 'fields.formatStandard', hint: 'fields.formatStandardHint' },
  slack: { label: 'fields.formatSlack', hint: 'fields.formatSlackHint' },
  teams: { label: 'fields.formatTeams', hint: 'fields.formatTeamsHint' },
} as const satisfies Record<WebhookFormat, { label: string; hint: string }>;

/**
 * The webhook format picker of every form that sets a webhook (a watchlist's, "Where site alerts
 * go"): its options, their words and the chosen one's description all come from the shared
 * `WEBHOOK_FORMAT_OPTIONS`, so no form can offer a different set.
 */
export function WebhookFormatField({ defaultValue }: { defaultValue: WebhookFormat }) {
  const [chosen, setChosen] = useState<string>(defaultValue);
  const words = WEBHOOK_FORMAT_OPTIONS.find((format) => format.id === chosen);
  const hint = words ? t(FORMAT_WORDS[words.id].hint) : undefined;
  return (
    <FormField label={t('fields.webhookFormat')} hint={hint} problem={undefined}>
      {(control) => (
        <select
          {...control}
          name="webhook_format"
          defaultValue={defaultValue}
          onChange={(event) => setChosen(event.currentTarget.value)}
        >
          {WEBHOOK_FORMAT_OPTIONS.map((format) => (
            <option key={format.id} value={format.id}>
              {t(FORMAT_WORDS[format.id].label)}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}
