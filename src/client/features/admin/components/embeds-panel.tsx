import { useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { QueryError } from '../../../components/query-error';
import { TableHead } from '../../../components/data-table';
import { Skeleton } from '../../../components/skeleton';
import { EMBED_VIEW_CHOICES, type EmbedListed } from '../../../../shared/reach-api';
import { reachQueries, useMakeEmbed, useRevoke } from '../api/reach-api';
import { t } from '../../../lib/i18n';
import { UseCells } from './reach-cells';

/** A view's words ("World map with tiers"); a view this page does not know, as the BFF says it. */
function viewWords(view: string): string {
  return (EMBED_VIEW_CHOICES as readonly string[]).includes(view)
    ? t(`admin.view_${view as (typeof EMBED_VIEW_CHOICES)[number]}`)
    : view;
}

/** The form that makes an embed: its name, view, subject, the site allowed and the expiry. */
function EmbedForm({ make }: { make: ReturnType<typeof useMakeEmbed> }) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const subject = String(form.get('subject') ?? '').trim();
    make.mutate({
      name: String(form.get('name') ?? ''),
      view: String(form.get('view')),
      ...(subject ? { subject } : {}),
      origin: String(form.get('origin') ?? '').trim(),
      expires_in_days: Number(form.get('days')),
    });
  };
  return (
    <form onSubmit={submit} className="reach-form">
      <label>
        {t('admin.name')} <input name="name" required maxLength={100} />
      </label>
      <label>
        {t('admin.view')}{' '}
        <select name="view" defaultValue="map">
          {EMBED_VIEW_CHOICES.map((view) => (
            <option key={view} value={view}>
              {viewWords(view)}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('admin.subject')} <input name="subject" maxLength={20} />
      </label>
      <label>
        {t('admin.origin')}{' '}
        <input name="origin" required placeholder="https://intranet.example.com" />
      </label>
      <label>
        {t('admin.expiresInDays')}{' '}
        <input name="days" type="number" min={1} max={365} defaultValue={90} />
      </label>
      <button type="submit" disabled={make.isPending}>
        {t('admin.makeEmbed')}
      </button>
    </form>
  );
}

/** The embeds made, each with its use and a Revoke named for it; names and sites as typed. */
function EmbedsTable({
  embeds,
  revoke,
}: {
  embeds: readonly EmbedListed[];
  revoke: ReturnType<typeof useRevoke>;
}) {
  return (
    <table className="audit-table phone-cards">
      <TableHead
        columns={[
          { label: t('admin.name') },
          { label: t('admin.view') },
          { label: t('admin.site') },
          { label: t('admin.expires') },
          { label: t('admin.lastShown') },
          { label: t('admin.timesShown') },
          { label: <span className="visually-hidden">{t('admin.revoke')}</span> },
        ]}
      />
      <tbody>
        {embeds.map((embed) => (
          <tr key={embed.id}>
            <th scope="row" translate="no">
              {embed.name}
            </th>
            <td data-label={t('admin.view')}>
              {viewWords(embed.view)}
              {embed.subject ? <span translate="no"> {embed.subject}</span> : null}
            </td>
            <td data-label={t('admin.site')} translate="no">
              {embed.origin}
            </td>
            <UseCells
              item={embed}
              words={{ lastUse: t('admin.lastShown'), uses: t('admin.timesShown') }}
              revoking={revoke.isPending}
              onRevoke={(id) => revoke.mutate(id)}
            />
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Embeds: made for one view and one site (the iframe URL shown once, here), listed, revoked. */
export function EmbedsPanel() {
  const embeds = useQuery(reachQueries.embeds());
  const make = useMakeEmbed();
  const revoke = useRevoke('embeds');
  return (
    <section aria-labelledby="embeds-heading">
      <h2 id="embeds-heading">{t('admin.embedsHeading')}</h2>
      <EmbedForm make={make} />
      {make.isError ? <p role="alert">{make.error.message}</p> : null}
      {make.data ? (
        <p role="status">
          {t('admin.copyNow')}
          <code translate="no">{make.data.data.iframe}</code>
        </p>
      ) : null}
      {revoke.isError ? <p role="alert">{revoke.error.message}</p> : null}
      {embeds.isPending ? (
        <Skeleton label={t('admin.loadingEmbeds')} />
      ) : embeds.isError ? (
        <QueryError error={embeds.error} what={t('admin.theEmbeds')} />
      ) : embeds.data.data.embeds.length === 0 ? (
        <p>{t('admin.noEmbeds')}</p>
      ) : (
        <EmbedsTable embeds={embeds.data.data.embeds} revoke={revoke} />
      )}
    </section>
  );
}
