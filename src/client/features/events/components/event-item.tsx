import type { RiskEvent } from '../../../../shared/schemas/event';
import { formatRelative, formatUtcDateTime, humanise, NA } from '../../../lib/format';
import { safeHttpUrl } from '../../../lib/safe-url';
import { roleLabel } from '../../../lib/event-roles';

/**
 * One event. The headline is always text (React escapes it, so HTML in it shows as characters);
 * it is a link only when the URL is http(s), opening a new tab without handing it our window.
 */
export function EventItem({ event, now }: { event: RiskEvent; now: number }) {
  const href = safeHttpUrl(event.url);
  const source = event.source_name ?? event.source ?? NA;
  return (
    <li className="event">
      <div className="event-badges">
        {event.breaking ? <span className="badge badge-breaking">Breaking</span> : null}
        {event.state_affiliated ? (
          <span className="badge badge-state" title="The source is affiliated with a state">
            State-affiliated
          </span>
        ) : null}
        {event.role ? (
          <span className="badge badge-role" title={`This country's role (${event.role})`}>
            {roleLabel(event.role)}
          </span>
        ) : null}
      </div>
      <p className="event-headline">
        {href ? (
          <a href={href} target="_blank" rel="noopener noreferrer">
            {event.headline}
            <span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        ) : (
          <span>{event.headline}</span>
        )}
      </p>
      <p className="event-meta">
        <time dateTime={event.ts} title={formatUtcDateTime(event.ts)}>
          {formatRelative(event.ts, now)}
        </time>{' '}
        · {formatUtcDateTime(event.ts)} · <span className="event-source">{source}</span>
        {event.source && event.source_name ? (
          <span className="muted"> ({event.source})</span>
        ) : null}
        {' · '}
        {humanise(event.source_category)} · reliability {humanise(event.source_tier)}
      </p>
    </li>
  );
}
