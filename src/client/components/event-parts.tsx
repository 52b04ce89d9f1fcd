import type { RiskEvent } from '../../shared/schemas/event';
import { roleLabel } from '../lib/event-roles';
import { safeHttpUrl } from '../lib/safe-url';
import { t } from '../lib/i18n';

/** The badges of an event (live feed and archive alike): breaking, state-affiliated, role. */
export function EventBadges({ event, className }: { event: RiskEvent; className: string }) {
  return (
    <div className={className}>
      {event.breaking ? (
        <span className="badge badge-breaking">{t('country.breaking')}</span>
      ) : null}
      {event.state_affiliated ? (
        <span className="badge badge-state" title={t('country.stateAffiliatedTitle')}>
          {t('country.stateAffiliated')}
        </span>
      ) : null}
      {event.role ? (
        <span className="badge badge-role" title={t('country.roleTitle', { role: event.role })}>
          {roleLabel(event.role)}
        </span>
      ) : null}
    </div>
  );
}

/**
 * Upstream text (headlines, source names) is shown as it came, never translated (issue 34):
 * `translate="no"` says so to browsers' translators and to the pseudo-locale test. Its
 * language is not given by the upstream, so no `lang` is claimed for it.
 *
 * The headline is always text (React escapes it, so HTML in it shows as characters); it is a
 * link only when the URL is http(s), opening a new tab without handing it our window.
 */
export function EventHeadline({ event, className }: { event: RiskEvent; className: string }) {
  const href = safeHttpUrl(event.url);
  return (
    <p className={className}>
      {href ? (
        <a href={href} target="_blank" rel="noopener noreferrer">
          <span translate="no">{event.headline}</span>
          <span className="visually-hidden">{t('country.opensNewTab')}</span>
        </a>
      ) : (
        <span translate="no">{event.headline}</span>
      )}
    </p>
  );
}
