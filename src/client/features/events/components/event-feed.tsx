import { useId } from 'react';
import type { RiskEvent } from '../../../../shared/schemas/event';
import { useEventFilters } from '../hooks/use-event-filters';
import { filterEvents, rolesPresent, sortNewestFirst } from '../utils/event-filters';
import { roleOption } from '../../../lib/event-roles';
import { EventItem } from './event-item';
import { SelectField } from '../../../components/select-field';
import { t } from '../../../lib/i18n';

/** Where the country page's skip link lands (routes.tsx). */
const SKIP_TARGET = 'country-events';

/** The country's recent events, newest first, filterable by role and breaking. */
export function EventFeed({
  events,
  now,
}: {
  events: readonly RiskEvent[] | null | undefined;
  now: number;
}) {
  const id = useId();
  const [filters, setFilters] = useEventFilters();
  const all = sortNewestFirst(events ?? []);
  const shown = filterEvents(all, filters);
  const roles = [...new Set([...rolesPresent(all), ...(filters.role ? [filters.role] : [])])];
  const filtered = filters.role !== null || filters.breakingOnly;

  return (
    <section className="panel" aria-labelledby={`${id}-heading`}>
      <div className="panel-head">
        <h2 id={`${id}-heading`}>{t('country.events')}</h2>
        <p className="panel-sub">
          {all.length === 0
            ? t('country.eventsNone')
            : filtered
              ? t('country.eventsShown', { shown: shown.length, all: all.length })
              : t('country.eventsAll', { all: all.length })}
        </p>
      </div>
      {all.length > 0 ? (
        <div className="filter-bar">
          <SelectField
            label={t('country.role')}
            value={filters.role ?? ''}
            onChange={(role) => setFilters({ role: role || null })}
          >
            <option value="">{t('country.allRoles')}</option>
            {roles.map((role) => (
              <option key={role} value={role}>
                {roleOption(role)}
              </option>
            ))}
          </SelectField>
          <label className="check">
            <input
              type="checkbox"
              checked={filters.breakingOnly}
              onChange={(event) => setFilters({ breakingOnly: event.target.checked })}
            />
            {t('country.breakingOnly')}
          </label>
        </div>
      ) : null}
      {/* The country page's "Skip to the events" lands on the list (or on why there is none),
          so the next Tab is the first event's link. */}
      {all.length === 0 ? (
        <p className="empty" id={SKIP_TARGET} tabIndex={-1}>
          {t('country.noEvents')}
        </p>
      ) : shown.length === 0 ? (
        <p className="empty" id={SKIP_TARGET} tabIndex={-1}>
          {t('country.noEventsMatch')}{' '}
          <button
            type="button"
            className="link-button"
            onClick={() => setFilters({ role: null, breakingOnly: false })}
          >
            {t('country.showAllEvents')}
          </button>
        </p>
      ) : (
        <ol
          className="event-list"
          id={SKIP_TARGET}
          tabIndex={-1}
          aria-label={t('country.eventsNewestFirst')}
        >
          {shown.map((event, index) => (
            <EventItem key={`${event.ts}-${index}`} event={event} now={now} />
          ))}
        </ol>
      )}
    </section>
  );
}
