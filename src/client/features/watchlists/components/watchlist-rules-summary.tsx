import type { Watchlist } from '../../../../shared/alerts-api';
import { Link } from '../../../lib/app-link';
import { ruleSentence } from '../utils/rule-drafts';
import { t } from '../../../lib/i18n';

/** What a list will alert on (the site list: what the site rule sends), in sentences, at the top of its page (edited in its settings). */
export function WatchlistRulesSummary({ list }: { list: Watchlist }) {
  return (
    <section className="panel watchlist-rules" aria-labelledby="rules-title">
      <h2 id="rules-title">{t('watchlists.rulesHeading')}</h2>
      {list.site_alerts ? (
        // The site rule's list (issue 33, point 12): no rules of its own, yet it alerts.
        <p>
          {t('watchlists.siteAlertsLead')} <Link to="/exposure">{t('shell.exposure')}</Link>{' '}
          {t('watchlists.siteAlertsEnd')}
        </p>
      ) : list.rules.length === 0 ? (
        <p className="empty">{t('watchlists.noRules')}</p>
      ) : (
        <ul>
          {list.rules.map((rule, index) => (
            <li key={index}>{ruleSentence(rule)}</li>
          ))}
        </ul>
      )}
      {list.site_alerts ? null : (
        <p className="no-print">
          <a href="#settings-title">{t('watchlists.changeRules')}</a>
        </p>
      )}
    </section>
  );
}
