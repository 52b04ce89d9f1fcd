import type { RiskEvent } from '../../../../shared/schemas/event';
import { formatRelative, formatUtcDateTime, humanise, na } from '../../../lib/format';
import { EventBadges, EventHeadline } from '../../../components/event-parts';
import { t } from '../../../lib/i18n';

/** One event of the live feed: badges, headline, when, the source and its labels. */
export function EventItem({ event, now }: { event: RiskEvent; now: number }) {
  const source = event.source_name ?? event.source ?? na();
  return (
    <li className="event">
      <EventBadges event={event} className="event-badges" />
      <EventHeadline event={event} className="event-headline" />
      <p className="event-meta">
        {/* On paper the date alone (issue 33, point 9): an "ago" is wrong by the time it is read. */}
        <span className="screen-only">
          <time dateTime={event.ts} title={formatUtcDateTime(event.ts)}>
            {formatRelative(event.ts, now)}
          </time>{' '}
          ·{' '}
        </span>
        <time dateTime={event.ts}>{formatUtcDateTime(event.ts)}</time> ·{' '}
        <span className="event-source" translate="no">
          {source}
        </span>
        {event.source && event.source_name ? (
          <span className="muted" translate="no">
            {' '}
            ({event.source})
          </span>
        ) : null}
        {' · '}
        {/* The upstream's labels of its source, made readable but never translated. */}
        <span translate="no">{humanise(event.source_category)}</span> · {t('country.reliability')}{' '}
        <span translate="no">{humanise(event.source_tier)}</span>
      </p>
    </li>
  );
}
