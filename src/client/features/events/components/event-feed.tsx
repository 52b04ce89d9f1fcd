import { useId } from 'react';
import type { RiskEvent } from '../../../../shared/schemas/event';
import { useEventFilters } from '../hooks/use-event-filters';
import { filterEvents, rolesPresent, sortNewestFirst } from '../utils/event-filters';
import { roleOption } from '../../../lib/event-roles';
import { EventItem } from './event-item';
import { SelectField } from '../../../components/select-field';

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
        <h2 id={`${id}-heading`}>Events</h2>
        <p className="panel-sub">
          {all.length === 0
            ? 'None in the current data'
            : filtered
              ? `${shown.length} of ${all.length}, newest first`
              : `${all.length}, newest first`}
        </p>
      </div>
      {all.length > 0 ? (
        <div className="filter-bar">
          <SelectField
            label="Role"
            value={filters.role ?? ''}
            onChange={(role) => setFilters({ role: role || null })}
          >
            <option value="">All roles</option>
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
            Breaking only
          </label>
        </div>
      ) : null}
      {/* The country page's "Skip to the events" lands on the list (or on why there is none),
          so the next Tab is the first event's link. */}
      {all.length === 0 ? (
        <p className="empty" id={SKIP_TARGET} tabIndex={-1}>
          No recent events for this country in the current data.
        </p>
      ) : shown.length === 0 ? (
        <p className="empty" id={SKIP_TARGET} tabIndex={-1}>
          No events match these filters.{' '}
          <button
            type="button"
            className="link-button"
            onClick={() => setFilters({ role: null, breakingOnly: false })}
          >
            Show all events
          </button>
        </p>
      ) : (
        <ol className="event-list" id={SKIP_TARGET} tabIndex={-1} aria-label="Events, newest first">
          {shown.map((event, index) => (
            <EventItem key={`${event.ts}-${index}`} event={event} now={now} />
          ))}
        </ol>
      )}
    </section>
  );
}
