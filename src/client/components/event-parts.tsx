import type { RiskEvent } from '../../shared/schemas/event';
import { roleLabel } from '../lib/event-roles';
import { safeHttpUrl } from '../lib/safe-url';

/** The badges of an event (live feed and archive alike): breaking, state-affiliated, role. */
export function EventBadges({ event, className }: { event: RiskEvent; className: string }) {
  return (
    <div className={className}>
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
  );
}

/**
 * The headline is always text (React escapes it, so HTML in it shows as characters); it is a
 * link only when the URL is http(s), opening a new tab without handing it our window.
 */
export function EventHeadline({ event, className }: { event: RiskEvent; className: string }) {
  const href = safeHttpUrl(event.url);
  return (
    <p className={className}>
      {href ? (
        <a href={href} target="_blank" rel="noopener noreferrer">
          {event.headline}
          <span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      ) : (
        <span>{event.headline}</span>
      )}
    </p>
  );
}
