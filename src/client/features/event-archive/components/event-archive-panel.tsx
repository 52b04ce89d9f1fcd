import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import type { ArchivedEvent } from '../../../../shared/history-api';
import { EventBadges, EventHeadline } from '../../../components/event-parts';
import { QueryError } from '../../../components/query-error';
import { OlderEvents } from './older-events';
import { Skeleton } from '../../../components/skeleton';
import { formatUtcDateTime, na } from '../../../lib/format';
import { eventArchiveQueries } from '../api/event-archive-queries';

/** One archived event; `country` (a link, say) leads its line when events of many are listed. */
export function ArchivedEventItem({
  event,
  country = null,
}: {
  event: ArchivedEvent;
  country?: ReactNode;
}) {
  return (
    <li className="archive-event">
      <EventBadges event={event} className="archive-badges" />
      <EventHeadline event={event} className="archive-headline" />
      <p className="archive-meta">
        {country ? <>{country} · </> : null}
        <time dateTime={event.ts}>{formatUtcDateTime(event.ts)}</time> ·{' '}
        <span className="archive-source">{event.source_name ?? event.source ?? na()}</span>
      </p>
    </li>
  );
}

/** What identifies an event (the upstream gives events no id). */
export type EventKeyed = { ts: string; headline: string; url?: string | null };

/** The key an event is known by in lists. */
export function eventKey(event: EventKeyed): string {
  return `${event.ts}|${event.headline}|${event.url ?? ''}`;
}

/**
 * Every event the BFF has archived for a country, beyond the upstream's latest 20: a search (in
 * the URL as `?eq=`, applied on submit) and "Show older events" paging. Events already in the
 * live feed above (`inFeed`) are not listed again unless searched for.
 */
export function EventArchivePanel({
  iso,
  inFeed = [],
}: {
  iso: string;
  inFeed?: readonly EventKeyed[] | undefined;
}) {
  const [params, setParams] = useSearchParams();
  const q = (params.get('eq') ?? '').trim();
  const [draft, setDraft] = useState(q);
  const query = useInfiniteQuery(eventArchiveQueries.country(iso, q));
  const inFeedKeys = useMemo(() => new Set(inFeed.map(eventKey)), [inFeed]);
  const archived = query.data?.pages.flatMap((page) => page.data.events) ?? [];
  // A search looks through everything; without one, the feed above already shows its events.
  const events = q ? archived : archived.filter((event) => !inFeedKeys.has(eventKey(event)));
  const sub =
    inFeed.length > 0 && !q
      ? `Events recorded for ${iso} before the ${inFeed.length} in the feed above, newest first.`
      : `Every event recorded for ${iso}, newest first.`;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        const text = draft.trim();
        if (text === '') updated.delete('eq');
        else updated.set('eq', text);
        return updated;
      },
      { replace: true, preventScrollReset: true },
    );
  };

  return (
    <section className="panel" aria-labelledby="archive-heading">
      <div className="panel-head">
        <h2 id="archive-heading">Event archive</h2>
        <p className="panel-sub">{sub}</p>
      </div>
      <form
        className="filter-bar"
        role="search"
        aria-label="Search the event archive"
        onSubmit={submit}
      >
        <div className="field field-grow">
          <label htmlFor="archive-search">Headline or source contains</label>
          <input
            id="archive-search"
            type="search"
            value={draft}
            maxLength={200}
            onChange={(event) => setDraft(event.target.value)}
          />
        </div>
        <button type="submit">Search</button>
      </form>
      {query.isPending ? (
        <Skeleton label="Loading the event archive" lines={5} />
      ) : query.isError && !query.data ? (
        <QueryError
          what="The event archive"
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <>
          {events.length === 0 ? (
            <p className="empty">
              {q
                ? `No archived event of ${iso} matches “${q}”.`
                : archived.length === 0
                  ? `No events archived for ${iso} yet.`
                  : query.hasNextPage
                    ? 'Every event loaded so far is in the feed above.'
                    : `No events recorded for ${iso} beyond the feed above.`}
            </p>
          ) : (
            <>
              <p className="muted" aria-live="polite">
                {events.length} {events.length === 1 ? 'event' : 'events'} shown
                {q ? ` matching “${q}”` : ''}
                {query.hasNextPage ? '; older ones below' : ''}.
              </p>
              <ol className="archive-list">
                {events.map((event) => (
                  <ArchivedEventItem key={eventKey(event)} event={event} />
                ))}
              </ol>
            </>
          )}
          <OlderEvents query={query} />
        </>
      )}
    </section>
  );
}
