import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import {
  webhookFormatLabel,
  type Watchlist,
  type WebhookFormat,
} from '../../../../shared/alerts-api';
import { FormField } from '../../../components/form-field';
import { QueryError } from '../../../components/query-error';
import { WebhookFormatField } from '../../../components/webhook-format-field';
import { ApiError } from '../../../lib/api-client';
import { t } from '../../../lib/i18n';
import { useSaveAlertDelivery } from '../api/site-mutations';
import { siteQueries } from '../api/site-queries';

type DeliveryField = 'webhook_url' | 'email';
type Problems = Partial<Record<DeliveryField, string>>;

/**
 * The field a refusal is about and its words without the API's names: "email: not an address"
 * → e-mail, "Not an address"; the address checks' words ("10.0.0.1 is a private address") are
 * about the webhook URL.
 */
export function deliveryProblem(message: string): { field: DeliveryField; words: string } {
  const field: DeliveryField = /^email\b/.test(message) ? 'email' : 'webhook_url';
  const rest = message
    .replace(/^(webhook_url|email):\s*/, '')
    .replace(/^webhook_url\b/, 'The webhook URL')
    .replace(/^email\b/, 'The e-mail address');
  return { field, words: rest.charAt(0).toUpperCase() + rest.slice(1) };
}

function ReadOnly({ list }: { list: Watchlist }) {
  return (
    <dl className="delivery-settings">
      <dt>{t('sites.webhook')}</dt>
      <dd>
        {list.webhook ? (
          <>
            <span translate="no">{list.webhook.url}</span> (
            {webhookFormatLabel(list.webhook.format)})
          </>
        ) : (
          t('sites.none')
        )}
      </dd>
      <dt>{t('sites.email')}</dt>
      <dd translate={list.email ? 'no' : undefined}>{list.email ?? t('sites.none')}</dd>
    </dl>
  );
}

function DeliveryForm({ list }: { list: Watchlist }) {
  const form = useRef<HTMLFormElement>(null);
  const { save, problems, general, secret, saved, clear, submit } = useDeliverySave(list, form);
  return (
    <form ref={form} onSubmit={submit} noValidate>
      <FormField label={t('sites.webhookUrl')} problem={problems.webhook_url}>
        {(control) => (
          <input
            {...control}
            name="webhook_url"
            type="url"
            defaultValue={list.webhook?.url ?? ''}
            onChange={() => clear('webhook_url')}
          />
        )}
      </FormField>
      <WebhookFormatField defaultValue={list.webhook?.format ?? 'standard'} />
      <FormField label={t('sites.emailAddress')} problem={problems.email}>
        {(control) => (
          <input
            {...control}
            name="email"
            type="email"
            defaultValue={list.email ?? ''}
            onChange={() => clear('email')}
          />
        )}
      </FormField>
      <button type="submit" disabled={save.isPending}>
        {save.isPending ? t('sites.saving') : t('sites.save')}
      </button>
      <p role="status" className="panel-sub">
        {saved ? t('sites.saved') : ''}
      </p>
      {general ? (
        <p role="alert" className="field-problem">
          {general}
        </p>
      ) : null}
      {secret ? (
        <p className="webhook-secret">
          {t('sites.signingSecret')}
          <code translate="no">{secret}</code>
        </p>
      ) : null}
    </form>
  );
}

/**
 * Where site alerts go besides everyone's inbox: the "Our sites" list's webhook and e-mail. An
 * editor sets them here; a viewer sees them.
 */
export function SiteAlertDeliveryPanel({ editor }: { editor: boolean }) {
  const id = useId();
  const query = useQuery(siteQueries.alertDelivery());
  const list = query.data?.data.watchlist;
  return (
    <section className="panel site-alert-delivery no-print" aria-labelledby={`${id}-heading`}>
      <div className="panel-head">
        <h2 id={`${id}-heading`}>{t('sites.deliveryHeading')}</h2>
      </div>
      <p className="panel-sub">{t('sites.deliveryHow')}</p>
      {query.error instanceof ApiError && query.error.status === 404 ? (
        // No sites yet: the list comes with the first one (issue 33, point 12).
        <p>{t('sites.deliveryNoSites')}</p>
      ) : query.error ? (
        <QueryError what={t('sites.deliveryHeading')} error={query.error} />
      ) : null}
      {list?.webhook?.paused_at ? (
        <p role="alert">
          {t('sites.deliveryPaused', {
            reason: list.webhook.paused_reason ?? t('sites.deliveryPausedReason'),
          })}
        </p>
      ) : null}
      {list ? (
        editor ? (
          // Not keyed by version: a save refetches the list, and what was typed, the "Saved."
          // and a new webhook's secret (shown once) stay on screen.
          <DeliveryForm list={list} />
        ) : (
          <ReadOnly list={list} />
        )
      ) : null}
    </section>
  );
}

/** Saving the delivery settings: each 400 shown at its field (which takes the focus). */
function useDeliverySave(list: Watchlist, form: RefObject<HTMLFormElement | null>) {
  const save = useSaveAlertDelivery();
  const [problems, setProblems] = useState<Problems>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const clear = (field: DeliveryField) => {
    setSaved(false);
    setProblems((was) => (was[field] ? { ...was, [field]: undefined } : was));
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: string) => String(data.get(name) ?? '').trim();
    setGeneral(null);
    setSaved(false);
    try {
      const answer = await save.mutateAsync({
        base: list,
        input: {
          webhook_url: text('webhook_url') || null,
          webhook_format: (text('webhook_format') || 'standard') as WebhookFormat,
          email: text('email') || null,
        },
      });
      setProblems({});
      setSaved(true);
      if (answer.data.webhook_secret) setSecret(answer.data.webhook_secret);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof ApiError && error.status === 400) {
        const { field, words } = deliveryProblem(message);
        setProblems({ [field]: words });
        // The field with the problem takes the focus, as the watchlist form does.
        requestAnimationFrame(() =>
          form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(),
        );
      } else {
        setGeneral(message);
      }
    }
  };

  return { save, problems, general, secret, saved, clear, submit };
}
