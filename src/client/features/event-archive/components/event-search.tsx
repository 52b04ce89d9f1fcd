import { useInfiniteQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Link } from '../../../lib/app-link';
import { QueryError } from '../../../components/query-error';
import { OlderEvents } from './older-events';
import { Skeleton } from '../../../components/skeleton';
import { eventArchiveQueries, type EventFilters } from '../api/event-archive-queries';
import { ArchivedEventItem, eventKey } from './event-archive-panel';
import { displayName } from '../../../lib/display-name';
import { SelectField } from '../../../components/select-field';

export interface CountryChoice {
  iso: string;
  name: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const ISO3 = /^[A-Z]{3}$/;

/** One end of the searched range of days (UTC), with the range's problem when it has one. */
function RangeEnd({
  end,
  label,
  value,
  onChange,
  problem = null,
}: {
  end: 'from' | 'to';
  label: string;
  value: string;
  onChange: (end: 'from' | 'to', value: string) => void;
  problem?: string | null;
}) {
  const id = `event-${end}`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="date"
        value={value}
        aria-invalid={problem !== null || undefined}
        aria-describedby={problem !== null ? 'event-range-error' : undefined}
        onChange={(event) => onChange(end, event.target.value)}
      />
      {problem !== null ? (
        <p id="event-range-error" className="field-error">
          {problem}
        </p>
      ) : null}
    </div>
  );
}

/** The filters as the URL holds them; a value the URL cannot mean is dropped, not sent. */
export function filtersFromUrl(params: URLSearchParams): EventFilters {
  const day = (name: string) => {
    const value = params.get(name) ?? '';
    return DAY.test(value) ? value : '';
  };
  const iso = (params.get('iso') ?? '').toUpperCase();
  return {
    q: (params.get('q') ?? '').trim().slice(0, 200),
    iso: ISO3.test(iso) ? iso : '',
    from: day('from'),
    to: day('to'),
    breaking: params.get('breaking') === '1',
  };
}

function urlFromFilters(filters: EventFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.q !== '') params.set('q', filters.q);
  if (filters.iso !== '') params.set('iso', filters.iso);
  if (filters.from !== '') params.set('from', filters.from);
  if (filters.to !== '') params.set('to', filters.to);
  if (filters.breaking) params.set('breaking', '1');
  return params;
}

/** "matching “sanctions” in Mali from 1 Nov 2026": the filters in words, for the count line. */
function describe(filters: EventFilters, nameOf: (iso: string) => string): string {
  const parts: string[] = [];
  if (filters.breaking) parts.push('breaking');
  if (filters.q) parts.push(`matching “${filters.q}”`);
  if (filters.iso) parts.push(`in ${nameOf(filters.iso)}`);
  if (filters.from) parts.push(`from ${filters.from}`);
  if (filters.to) parts.push(`to ${filters.to}`);
  return parts.length > 0 ? ` ${parts.join(' ')}` : '';
}

/**
 * Every archived event of every country: a search by words (headline or source), country and
 * days, applied on submit and kept in the URL so a search can be shared; newest first, paged.
 */
export function EventSearch({
  countries,
  namesLoading = false,
}: {
  countries: readonly CountryChoice[];
  /** The country names are still on their way: results wait for them (names replacing codes
   * rewrapped the lines and moved the results below them). */
  namesLoading?: boolean;
}) {
  const [params, setParams] = useSearchParams();
  const filters = filtersFromUrl(params);
  const [draft, setDraft] = useState(filters);
  const query = useInfiniteQuery(eventArchiveQueries.search(filters));
  const events = query.data?.pages.flatMap((page) => page.data.events) ?? [];
  const names = new Map(countries.map((c) => [c.iso, displayName(c.iso, c.name)]));
  const nameOf = (iso: string) => names.get(iso) ?? iso;
  const rangeWrong = draft.from !== '' && draft.to !== '' && draft.from > draft.to;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (rangeWrong) return;
    setParams(urlFromFilters({ ...draft, q: draft.q.trim() }), { preventScrollReset: true });
  };
  const set = <K extends keyof EventFilters>(key: K, value: EventFilters[K]) =>
    setDraft((current) => ({ ...current, [key]: value }));

  return (
    <section className="panel" aria-labelledby="event-search-heading">
      <div className="panel-head">
        <h2 id="event-search-heading">Search every country&apos;s events</h2>
        <p className="panel-sub">Every event recorded since history began, newest first.</p>
      </div>
      <form className="filter-bar event-search-form" role="search" onSubmit={submit}>
        <div className="field field-grow">
          <label htmlFor="event-q">Headline or source contains</label>
          <input
            id="event-q"
            type="search"
            value={draft.q}
            maxLength={200}
            placeholder="sanctions, earthquake, Reuters…"
            onChange={(event) => set('q', event.target.value)}
          />
        </div>
        <SelectField label="Country" value={draft.iso} onChange={(iso) => set('iso', iso)}>
          <option value="">All countries</option>
          {countries.map((c) => (
            <option key={c.iso} value={c.iso}>
              {displayName(c.iso, c.name)}
            </option>
          ))}
        </SelectField>
        <RangeEnd end="from" label="From (UTC)" value={draft.from} onChange={set} />
        <RangeEnd
          end="to"
          label="To (UTC)"
          value={draft.to}
          onChange={set}
          problem={rangeWrong ? '“To” is before “From”.' : null}
        />
        <label className="check-field">
          <input
            type="checkbox"
            checked={draft.breaking}
            onChange={(event) => set('breaking', event.target.checked)}
          />
          Breaking only
        </label>
        <button type="submit">Search</button>
      </form>
      {query.isPending || namesLoading ? (
        <Skeleton label="Searching the events" lines={6} />
      ) : query.isError && !query.data ? (
        <QueryError
          what="The event search"
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <>
          <p className="muted" aria-live="polite">
            {events.length === 0
              ? `No recorded event${describe(filters, nameOf)}.`
              : `${events.length} ${events.length === 1 ? 'event' : 'events'}${describe(filters, nameOf)} shown${query.hasNextPage ? '; older ones below' : ''}.`}
          </p>
          {events.length > 0 ? (
            <ol className="archive-list">
              {events.map((event) => (
                <ArchivedEventItem
                  key={`${event.iso}|${eventKey(event)}`}
                  event={event}
                  country={<Link to={`/country/${event.iso}`}>{nameOf(event.iso)}</Link>}
                />
              ))}
            </ol>
          ) : null}
          <OlderEvents query={query} />
        </>
      )}
    </section>
  );
}
