import { useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { QueryError } from '../../../components/query-error';
import { TableHead } from '../../../components/data-table';
import { Skeleton } from '../../../components/skeleton';
import { EMBED_VIEW_CHOICES } from '../../../../shared/reach-api';
import { reachQueries, useMakeEmbed, useRevoke } from '../api/reach-api';
import { UseCells } from './reach-cells';

const VIEW_WORDS: Record<(typeof EMBED_VIEW_CHOICES)[number], string> = {
  map: 'World map with tiers',
  index: 'Global index with movers',
  country: "One country's card",
  watchlist: "A team watchlist's table",
};

/** Embeds: made for one view and one site (the iframe URL shown once, here), listed, revoked. */
export function EmbedsPanel() {
  const embeds = useQuery(reachQueries.embeds());
  const make = useMakeEmbed();
  const revoke = useRevoke('embeds');
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
    <section aria-labelledby="embeds-heading">
      <h2 id="embeds-heading">Embeds</h2>
      <form onSubmit={submit} className="reach-form">
        <label>
          Name <input name="name" required maxLength={100} />
        </label>
        <label>
          View{' '}
          <select name="view" defaultValue="map">
            {EMBED_VIEW_CHOICES.map((view) => (
              <option key={view} value={view}>
                {VIEW_WORDS[view]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Country code or watchlist id (for those views) <input name="subject" maxLength={20} />
        </label>
        <label>
          Site allowed to show it{' '}
          <input name="origin" required placeholder="https://intranet.example.com" />
        </label>
        <label>
          Expires in (days) <input name="days" type="number" min={1} max={365} defaultValue={90} />
        </label>
        <button type="submit" disabled={make.isPending}>
          Make embed
        </button>
      </form>
      {make.isError ? <p role="alert">{make.error.message}</p> : null}
      {make.data ? (
        <p role="status">
          Copy it now, it is not shown again: <code>{make.data.data.iframe}</code>
        </p>
      ) : null}
      {revoke.isError ? <p role="alert">{revoke.error.message}</p> : null}
      {embeds.isPending ? (
        <Skeleton label="Loading the embeds" />
      ) : embeds.isError ? (
        <QueryError error={embeds.error} what="The embeds" />
      ) : embeds.data.data.embeds.length === 0 ? (
        <p>No embed yet.</p>
      ) : (
        <table className="audit-table">
          <TableHead
            columns={[
              { label: 'Name' },
              { label: 'View' },
              { label: 'Site' },
              { label: 'Expires' },
              { label: 'Last shown' },
              { label: 'Times shown' },
              { label: <span className="visually-hidden">Revoke</span> },
            ]}
          />
          <tbody>
            {embeds.data.data.embeds.map((embed) => (
              <tr key={embed.id}>
                <th scope="row">{embed.name}</th>
                <td data-label="View">
                  {embed.view}
                  {embed.subject ? ` ${embed.subject}` : ''}
                </td>
                <td data-label="Site">{embed.origin}</td>
                <UseCells
                  item={embed}
                  words={{ lastUse: 'Last shown', uses: 'Times shown' }}
                  revoking={revoke.isPending}
                  onRevoke={(id) => revoke.mutate(id)}
                />
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
