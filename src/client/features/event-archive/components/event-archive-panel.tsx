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
import { t } from '../../../lib/i18n';

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
        {/* The upstream's name of its source, as it came. */}
        <span className="archive-source" translate="no">
          {event.source_name ?? event.source ?? na()}
        </span>
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

/** The archive's search by words (`?eq=` in the URL), applied on submit. */
function ArchiveSearch({ q }: { q: string }) {
  const [, setParams] = useSearchParams();
  const [draft, setDraft] = useState(q);
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
    <form
      className="filter-bar"
      role="search"
      aria-label={t('events.archiveSearch')}
      onSubmit={submit}
    >
      <div className="field field-grow">
        <label htmlFor="archive-search">{t('events.contains')}</label>
        <input
          id="archive-search"
          type="search"
          value={draft}
          maxLength={200}
          onChange={(event) => setDraft(event.target.value)}
        />
      </div>
      <button type="submit">{t('events.search')}</button>
    </form>
  );
}

/** The archive's events shown, or why there are none (a search, none yet, all in the feed). */
function ArchiveList({
  iso,
  q,
  events,
  anyArchived,
  hasNextPage,
}: {
  iso: string;
  q: string;
  events: readonly ArchivedEvent[];
  anyArchived: boolean;
  hasNextPage: boolean;
}) {
  if (events.length === 0) {
    return (
      <p className="empty">
        {q
          ? t('events.archiveNoMatch', { iso, q })
          : !anyArchived
            ? t('events.archiveNone', { iso })
            : hasNextPage
              ? t('events.archiveAllInFeed')
              : t('events.archiveNoMore', { iso })}
      </p>
    );
  }
  return (
    <>
      <p className="muted" aria-live="polite">
        {t('events.archiveShown', {
          count: events.length,
          matching: q ? t('events.wordsMatching', { q }) : '',
          older: hasNextPage ? t('events.olderBelow') : '',
        })}
      </p>
      <ol className="archive-list">
        {events.map((event) => (
          <ArchivedEventItem key={eventKey(event)} event={event} />
        ))}
      </ol>
    </>
  );
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
  const [params] = useSearchParams();
  const q = (params.get('eq') ?? '').trim();
  const query = useInfiniteQuery(eventArchiveQueries.country(iso, q));
  const inFeedKeys = useMemo(() => new Set(inFeed.map(eventKey)), [inFeed]);
  const archived = query.data?.pages.flatMap((page) => page.data.events) ?? [];
  // A search looks through everything; without one, the feed above already shows its events.
  const events = q ? archived : archived.filter((event) => !inFeedKeys.has(eventKey(event)));
  const sub =
    inFeed.length > 0 && !q
      ? t('events.archiveBefore', { iso, count: inFeed.length })
      : t('events.archiveEvery', { iso });

  return (
    <section className="panel" aria-labelledby="archive-heading">
      <div className="panel-head">
        <h2 id="archive-heading">{t('events.archive')}</h2>
        <p className="panel-sub">{sub}</p>
      </div>
      <ArchiveSearch q={q} />
      {query.isPending ? (
        <Skeleton label={t('events.archiveLoading')} lines={5} />
      ) : query.isError && !query.data ? (
        <QueryError
          what={t('events.archivePanel')}
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <>
          <ArchiveList
            iso={iso}
            q={q}
            events={events}
            anyArchived={archived.length > 0}
            hasNextPage={query.hasNextPage}
          />
          <OlderEvents query={query} />
        </>
      )}
    </section>
  );
}
