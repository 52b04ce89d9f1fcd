import { useInfiniteQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Link } from '../../../lib/app-link';
import { QueryError } from '../../../components/query-error';
import { OlderEvents } from './older-events';
import { Skeleton } from '../../../components/skeleton';
import {
  EVENT_COUNTRIES_MAX,
  eventArchiveQueries,
  eventsCsvUrl,
  type EventFilters,
} from '../api/event-archive-queries';
import { CountryPicker, type CountryChoices } from '../../../components/country-picker';
import { ArchivedEventItem, eventKey } from './event-archive-panel';
import { displayName } from '../../../lib/display-name';
import type { ArchivedEvent } from '../../../../shared/history-api';
import { SelectField } from '../../../components/select-field';
import { t } from '../../../lib/i18n';

export interface CountryChoice {
  iso: string;
  name: string;
  region?: string | null;
  subregion?: string | null;
}

/** A watchlist the search can take its countries from. */
export interface WatchlistChoice {
  id: string;
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
  const isos = (params.get('iso') ?? '')
    .toUpperCase()
    .split(',')
    .filter((iso) => ISO3.test(iso));
  const watchlist = params.get('watchlist') ?? '';
  return {
    q: (params.get('q') ?? '').trim().slice(0, 200),
    isos: [...new Set(isos)].slice(0, EVENT_COUNTRIES_MAX),
    region: (params.get('region') ?? '').slice(0, 100),
    watchlist: /^\d{1,12}$/.test(watchlist) ? watchlist : '',
    from: day('from'),
    to: day('to'),
    breaking: params.get('breaking') === '1',
  };
}

function urlFromFilters(filters: EventFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.q !== '') params.set('q', filters.q);
  if (filters.isos.length > 0) params.set('iso', filters.isos.join(','));
  else if (filters.region !== '') params.set('region', filters.region);
  else if (filters.watchlist !== '') params.set('watchlist', filters.watchlist);
  if (filters.from !== '') params.set('from', filters.from);
  if (filters.to !== '') params.set('to', filters.to);
  if (filters.breaking) params.set('breaking', '1');
  return params;
}

/** "matching “sanctions” in Mali from 1 Nov 2026": the filters in words, for the count line. */
function describe(
  filters: EventFilters,
  nameOf: (iso: string) => string,
  listName: (id: string) => string,
): string {
  // Each part starts with its space: "… breaking matching “sanctions” in Mali, Niger …".
  const parts: string[] = [];
  if (filters.breaking) parts.push(t('events.wordsBreaking'));
  if (filters.q) parts.push(t('events.wordsMatching', { q: filters.q }));
  if (filters.isos.length > 0) {
    const names = filters.isos.map(nameOf).join(t('events.listSeparator'));
    parts.push(t('events.wordsIn', { names }));
  } else if (filters.region) parts.push(t('events.wordsIn', { names: filters.region }));
  else if (filters.watchlist) {
    parts.push(t('events.wordsInList', { name: listName(filters.watchlist) }));
  }
  if (filters.from) parts.push(t('events.wordsFrom', { day: filters.from }));
  if (filters.to) parts.push(t('events.wordsTo', { day: filters.to }));
  return parts.join('');
}

/** Which countries: several by name, or a region, or a watchlist (choosing one clears the rest). */
function WhereFields({
  draft,
  choices,
  countries,
  watchlists,
  onChange,
}: {
  draft: EventFilters;
  choices: CountryChoices;
  countries: readonly CountryChoice[];
  watchlists: readonly WatchlistChoice[];
  onChange: (where: Pick<EventFilters, 'isos' | 'region' | 'watchlist'>) => void;
}) {
  const regions = [
    ...new Set(countries.flatMap((c) => [c.region, c.subregion]).filter((r) => !!r)),
  ].sort() as string[];
  return (
    <>
      <div className="field field-grow">
        <CountryPicker
          label={t('events.countries')}
          pendingName="event-country-pending"
          choices={choices}
          chosen={draft.isos}
          onChange={(isos) => onChange({ isos, region: '', watchlist: '' })}
          max={EVENT_COUNTRIES_MAX}
          error={null}
        />
      </div>
      <SelectField
        label={t('events.region')}
        value={draft.region}
        onChange={(region) => onChange({ isos: [], region, watchlist: '' })}
      >
        <option value="">{t('events.anyRegion')}</option>
        {regions.map((region) => (
          // The reference data's UN region names, as it gives them.
          <option key={region} value={region} translate="no">
            {region}
          </option>
        ))}
      </SelectField>
      <SelectField
        label={t('events.watchlist')}
        value={draft.watchlist}
        onChange={(watchlist) => onChange({ isos: [], region: '', watchlist })}
      >
        <option value="">{t('events.noWatchlist')}</option>
        {watchlists.map((list) => (
          <option key={list.id} value={list.id} translate="no">
            {list.name}
          </option>
        ))}
      </SelectField>
    </>
  );
}

/** The search's fields; the URL changes on submit only. */
function SearchForm({
  filters,
  choices,
  countries,
  watchlists,
}: {
  filters: EventFilters;
  choices: CountryChoices;
  countries: readonly CountryChoice[];
  watchlists: readonly WatchlistChoice[];
}) {
  const [, setParams] = useSearchParams();
  const [draft, setDraft] = useState(filters);
  const rangeWrong = draft.from !== '' && draft.to !== '' && draft.from > draft.to;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (rangeWrong) return;
    setParams(urlFromFilters({ ...draft, q: draft.q.trim() }), { preventScrollReset: true });
  };
  const set = <K extends keyof EventFilters>(key: K, value: EventFilters[K]) =>
    setDraft((current) => ({ ...current, [key]: value }));
  return (
    <form className="filter-bar event-search-form" role="search" onSubmit={submit}>
      <div className="field field-grow">
        <label htmlFor="event-q">{t('events.contains')}</label>
        <input
          id="event-q"
          type="search"
          value={draft.q}
          maxLength={200}
          placeholder={t('events.placeholder')}
          onChange={(event) => set('q', event.target.value)}
        />
      </div>
      <WhereFields
        draft={draft}
        choices={choices}
        countries={countries}
        watchlists={watchlists}
        onChange={(where) => setDraft((current) => ({ ...current, ...where }))}
      />
      <RangeEnd end="from" label={t('events.from')} value={draft.from} onChange={set} />
      <RangeEnd
        end="to"
        label={t('events.to')}
        value={draft.to}
        onChange={set}
        problem={rangeWrong ? t('events.toBeforeFrom') : null}
      />
      <label className="check-field">
        <input
          type="checkbox"
          checked={draft.breaking}
          onChange={(event) => set('breaking', event.target.checked)}
        />
        {t('country.breakingOnly')}
      </label>
      <button type="submit">{t('events.search')}</button>
    </form>
  );
}

/** The results; each names every asked country it was received for, as links. */
function FoundList({
  events,
  nameOf,
}: {
  events: readonly ArchivedEvent[];
  nameOf: (iso: string) => string;
}) {
  return (
    <ol className="archive-list" aria-label={t('events.found')}>
      {events.map((event) => (
        <ArchivedEventItem
          key={`${event.iso}|${eventKey(event)}`}
          event={event}
          country={
            <>
              {(event.countries ?? [event.iso]).map((iso, i) => (
                <span key={iso}>
                  {i > 0 ? ', ' : null}
                  <Link to={`/country/${iso}`}>{nameOf(iso)}</Link>
                </span>
              ))}
            </>
          }
        />
      ))}
    </ol>
  );
}

/**
 * Every archived event of every country: a search by words (headline or source), countries (or a
 * region, or a watchlist) and days, applied on submit and kept in the URL so a search can be
 * shared; newest first, paged; an event naming several of the countries is listed once.
 */
export function EventSearch({
  countries,
  watchlists = [],
  namesLoading = false,
}: {
  countries: readonly CountryChoice[];
  watchlists?: readonly WatchlistChoice[];
  /** The country names are still on their way: results wait for them (names replacing codes
   * rewrapped the lines and moved the results below them). */
  namesLoading?: boolean;
}) {
  const [params] = useSearchParams();
  const filters = filtersFromUrl(params);
  const query = useInfiniteQuery(eventArchiveQueries.search(filters));
  const events = query.data?.pages.flatMap((page) => page.data.events) ?? [];
  const names = new Map(countries.map((c) => [c.iso, displayName(c.iso, c.name)]));
  const nameOf = (iso: string) => names.get(iso) ?? iso;
  const listName = (id: string) => watchlists.find((l) => l.id === id)?.name ?? `#${id}`;
  const choices: CountryChoices = {
    countries: namesLoading
      ? undefined
      : countries.map((c) => ({
          ...c,
          official_name: c.name,
          aliases: [],
          region: c.region ?? null,
          subregion: c.subregion ?? null,
        })),
    loadError: null,
    figures: null,
  };
  const words = describe(filters, nameOf, listName);

  return (
    <section className="panel" aria-labelledby="event-search-heading">
      <div className="panel-head">
        <h2 id="event-search-heading">{t('events.heading')}</h2>
        <p className="panel-sub">{t('events.sub')}</p>
      </div>
      <SearchForm
        filters={filters}
        choices={choices}
        countries={countries}
        watchlists={watchlists}
      />
      {query.isPending || namesLoading ? (
        <Skeleton label={t('events.searching')} lines={6} />
      ) : query.isError && !query.data ? (
        <QueryError
          what={t('events.searchPanel')}
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <>
          <p className="muted" aria-live="polite">
            {events.length === 0
              ? t('events.noneFound', { words })
              : t('events.shown', {
                  count: events.length,
                  words,
                  older: query.hasNextPage ? t('events.olderBelow') : '',
                })}
          </p>
          {events.length > 0 ? (
            <>
              <p>
                <a href={eventsCsvUrl(filters)} download>
                  {t('events.csv')}
                </a>
              </p>
              <FoundList events={events} nameOf={nameOf} />
            </>
          ) : null}
          <OlderEvents query={query} />
        </>
      )}
    </section>
  );
}
