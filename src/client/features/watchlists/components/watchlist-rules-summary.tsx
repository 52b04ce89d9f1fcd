import type { Watchlist } from '../../../../shared/alerts-api';
import { ruleSentence } from '../utils/rule-drafts';

/** What a list will alert on, in sentences, at the top of its page (edited in its settings). */
export function WatchlistRulesSummary({ list }: { list: Watchlist }) {
  return (
    <section className="panel watchlist-rules" aria-labelledby="rules-title">
      <h2 id="rules-title">Alert rules</h2>
      {list.rules.length === 0 ? (
        <p className="empty">No rules: this list never alerts. Add one in its settings below.</p>
      ) : (
        <ul>
          {list.rules.map((rule, index) => (
            <li key={index}>{ruleSentence(rule)}</li>
          ))}
        </ul>
      )}
      <p className="no-print">
        <a href="#settings-title">Change the rules</a>
      </p>
    </section>
  );
}
