import { useState } from 'react';
import { WEBHOOK_FORMAT_OPTIONS, type WebhookFormat } from '../../shared/alerts-api';
import { FormField } from './form-field';

/**
 * The webhook format picker of every form that sets a webhook (a watchlist's, "Where site alerts
 * go"): its options, their words and the chosen one's description all come from the shared
 * `WEBHOOK_FORMAT_OPTIONS`, so no form can offer a different set.
 */
export function WebhookFormatField({ defaultValue }: { defaultValue: WebhookFormat }) {
  const [chosen, setChosen] = useState<string>(defaultValue);
  const hint = WEBHOOK_FORMAT_OPTIONS.find((format) => format.id === chosen)?.description;
  return (
    <FormField label="Webhook format" hint={hint} problem={undefined}>
      {(control) => (
        <select
          {...control}
          name="webhook_format"
          defaultValue={defaultValue}
          onChange={(event) => setChosen(event.currentTarget.value)}
        >
          {WEBHOOK_FORMAT_OPTIONS.map((format) => (
            <option key={format.id} value={format.id}>
              {format.label}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}
