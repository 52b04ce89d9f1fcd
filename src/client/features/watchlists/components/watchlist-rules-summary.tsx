import type { Watchlist } from '../../../../shared/alerts-api';
import { Link } from '../../../lib/app-link';
import { ruleSentence } from '../utils/rule-drafts';

/** What a list will alert on (the site list: what the site rule sends), in sentences, at the top of its page (edited in its settings). */
export function WatchlistRulesSummary({ list }: { list: Watchlist }) {
  return (
    <section className="panel watchlist-rules" aria-labelledby="rules-title">
      <h2 id="rules-title">Alert rules</h2>
      {list.site_alerts ? (
        // The site rule's list (issue 33, point 12): no rules of its own, yet it alerts.
        <p>
          Site alerts: each site with alerts on sends one here when a country within its alert
          radius (its own country included) rises a tier or its active score moves by at least the
          site&apos;s minimum change. The radius and change are set per site on the{' '}
          <Link to="/exposure">Exposure</Link> page; where else they go is set there too.
        </p>
      ) : list.rules.length === 0 ? (
        <p className="empty">No rules: this list never alerts. Add one in its settings below.</p>
      ) : (
        <ul>
          {list.rules.map((rule, index) => (
            <li key={index}>{ruleSentence(rule)}</li>
          ))}
        </ul>
      )}
      {list.site_alerts ? null : (
        <p className="no-print">
          <a href="#settings-title">Change the rules</a>
        </p>
      )}
    </section>
  );
}
