import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Link } from '../../../lib/app-link';
import type { CountryChange } from '../../../../shared/history-api';
import type { MethodMark } from '../../../../shared/method-api';
import { Delta } from '../../../components/delta';
import { QueryError } from '../../../components/query-error';
import { Skeleton } from '../../../components/skeleton';
import { TierBadge } from '../../../components/tier-badge';
import { formatSigned, formatUtcDateTime, humanise } from '../../../lib/format';
import { bffQueries } from '../../../lib/bff-queries';
import { RECORDED_DELTA_SOURCE } from '../../../lib/delta-labels';
import { changesQueries } from '../api/changes-queries';
import { ChangeWhy, type Between } from './change-why';
import { changeLists } from '../utils/change-lists';
import {
  CHANGES_SINCE,
  DEFAULT_SINCE,
  parseSince,
  SINCE_LABELS,
  type ChangesSince,
} from '../utils/since';
import { useAsOf } from '../../../lib/as-of';
import { displayName } from '../../../lib/display-name';

/** The method changes a comparison crosses, in words; null when it crosses none unannounced. */
function methodWords(changes: readonly MethodMark[]): string | null {
  const held = changes.filter((c) => !c.comparable);
  if (held.length === 0) return null;
  return held
    .map(
      (c) =>
        `The provider changed its method from ${c.from} to ${c.to} with the batch of ${formatUtcDateTime(c.as_of)}: scores are not comparable across it, so much of a move here may be the new method, not the world.`,
    )
    .join(' ');
}

function CountryLink({ iso, name }: { iso: string; name: string | null }) {
  return (
    <Link to={`/country/${encodeURIComponent(iso)}`}>
      {name ? displayName(iso, name) : iso}
      {name ? <span className="iso"> {iso}</span> : null}
    </Link>
  );
}

function categoriesText(change: CountryChange): string {
  return change.top_categories
    .slice(0, 2)
    .map((move) => `${humanise(move.category).toLowerCase()} ${formatSigned(move.delta, 1)}`)
    .join(', ');
}

function ChangeList({
  title,
  items,
  render,
  none,
  between,
}: {
  title: string;
  items: readonly CountryChange[];
  render: (change: CountryChange) => ReactNode;
  none: string;
  /** The two batches compared: each country gets a "Why?" for its move between them. */
  between: Between;
}) {
  return (
    <div className="change-list">
      <h3>{title}</h3>
      {items.length === 0 ? (
        <p className="muted">{none}</p>
      ) : (
        <ol>
          {items.map((change) => (
            <li key={change.iso}>
              <CountryLink iso={change.iso} name={change.name} /> {render(change)}
              <ChangeWhy
                iso={change.iso}
                name={change.name ? displayName(change.iso, change.name) : change.iso}
                between={between}
              />
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

function Moved({ change, by }: { change: CountryChange; by: 'delta_risk' | 'delta_active' }) {
  const categories = categoriesText(change);
  return (
    <>
      <Delta value={change[by]} />
      {categories ? <span className="muted change-why"> {categories}</span> : null}
    </>
  );
}

function TierMove({ change }: { change: CountryChange }) {
  return (
    <span className="tier-move">
      <TierBadge tier={change.then.tier} /> <span aria-hidden="true">→</span>
      <span className="visually-hidden">to</span> <TierBadge tier={change.now.tier} />
    </span>
  );
}

/**
 * "What changed": biggest risers and fallers (risk and active), tier changes, countries new to
 * or gone from the data, since the previous batch (or 24 h / 7 d, in the URL as `?changes=`).
 */
export function ChangesPanel() {
  const [params, setParams] = useSearchParams();
  const since = parseSince(params.get('changes'));
  const setSince = useCallback(
    (next: string) =>
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          if (next === DEFAULT_SINCE) updated.delete('changes');
          else updated.set('changes', next);
          return updated;
        },
        { replace: true, preventScrollReset: true, flushSync: true },
      ),
    [setParams],
  );
  const query = useQuery(changesQueries.since(since, useAsOf()));
  const lists = useMemo(
    () => (query.data ? changeLists(query.data.data.countries) : null),
    [query.data],
  );
  const fromBatch = query.data?.data.from_batch?.as_of;
  const toBatch = query.data?.data.to_batch?.as_of;
  const method = methodWords(query.data?.data.method_changes ?? []);
  const between = useMemo(
    () => (fromBatch && toBatch ? { from: fromBatch, to: toBatch, method } : null),
    [fromBatch, toBatch, method],
  );

  return (
    <section id="what-changed" className="panel changes-panel" aria-labelledby="changes-heading">
      <div className="panel-head">
        <h2 id="changes-heading">What changed</h2>
        <div className="segmented" role="group" aria-label="Compare the latest batch with">
          {CHANGES_SINCE.map((option) => (
            <button
              key={option}
              type="button"
              aria-pressed={since === option}
              onClick={() => setSince(option)}
            >
              {SINCE_LABELS[option]}
            </button>
          ))}
        </div>
      </div>
      {query.isPending ? (
        <Skeleton label="Loading what changed" lines={6} />
      ) : query.isError && !query.data ? (
        <QueryError what="What changed" error={query.error} onRetry={() => void query.refetch()} />
      ) : !query.data.data.from_batch || !query.data.data.to_batch || !lists || !between ? (
        <NothingToCompare since={since} latest={query.data.data.to_batch?.as_of ?? null} />
      ) : (
        <>
          <p className="panel-sub">
            Batch of {formatUtcDateTime(query.data.data.to_batch.as_of)} compared with{' '}
            {formatUtcDateTime(query.data.data.from_batch.as_of)};{' '}
            {query.data.data.countries.length} countries in both. Changes {RECORDED_DELTA_SOURCE};
            the tables&apos; Δ risk is the same figure where both batches are recorded.
          </p>
          {method ? (
            <p className="method-change-note" role="note">
              <strong>The method changed: </strong>
              {method} The moves below are shown with that caveat.
            </p>
          ) : null}
          <div className="changes-grid">
            <ChangeList
              between={between}
              title="Risk rose most"
              items={lists.riskRisers}
              none="No country's risk rose."
              render={(c) => <Moved change={c} by="delta_risk" />}
            />
            <ChangeList
              between={between}
              title="Risk fell most"
              items={lists.riskFallers}
              none="No country's risk fell."
              render={(c) => <Moved change={c} by="delta_risk" />}
            />
            <ChangeList
              between={between}
              title="Active score rose most"
              items={lists.activeRisers}
              none="No active score rose."
              render={(c) => <Moved change={c} by="delta_active" />}
            />
            <ChangeList
              between={between}
              title="Active score fell most"
              items={lists.activeFallers}
              none="No active score fell."
              render={(c) => <Moved change={c} by="delta_active" />}
            />
            <ChangeList
              between={between}
              title="Moved to a higher tier"
              items={lists.tierUp}
              none="None."
              render={(c) => <TierMove change={c} />}
            />
            <ChangeList
              between={between}
              title="Moved to a lower tier"
              items={lists.tierDown}
              none="None."
              render={(c) => <TierMove change={c} />}
            />
            <PresenceList title="New in the data" items={query.data.data.entered} />
            <PresenceList title="Gone from the data" items={query.data.data.left} />
          </div>
        </>
      )}
    </section>
  );
}

/**
 * Why there is no comparison. With one batch of country scores recorded, the trend beside this
 * panel may still draw many points: the upstream's feed history gives earlier global figures
 * without country scores (issue 19's "Nothing to compare yet" beside a trend of 14 batches).
 */
function NothingToCompare({ since, latest }: { since: ChangesSince; latest: string | null }) {
  const onlyOne = since === 'previous' && latest !== null;
  const trend = useQuery({ ...bffQueries.historyGlobal(), enabled: onlyOne });
  const earlier = Math.max(0, (trend.data?.data.points.length ?? 0) - 1);
  if (!onlyOne) {
    return (
      <p className="empty">
        Nothing to compare yet: at least two recorded batches are needed
        {since === 'previous' ? '' : ` ${SINCE_LABELS[since]} apart`}.
      </p>
    );
  }
  return (
    <p className="empty">
      Nothing to compare yet: only one batch with country scores is recorded (
      {formatUtcDateTime(latest)}); the next batch will be compared with it.
      {earlier > 0
        ? ` The trend's ${earlier} earlier ${earlier === 1 ? 'point is a global figure' : 'points are global figures'} from the upstream's feed history, without country scores.`
        : ''}
    </p>
  );
}

function PresenceList({
  title,
  items,
}: {
  title: string;
  items: readonly { iso: string; name: string | null }[];
}) {
  return (
    <div className="change-list">
      <h3>{title}</h3>
      {items.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <ul className="inline-list">
          {items.map((item) => (
            <li key={item.iso}>
              <CountryLink iso={item.iso} name={item.name} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
