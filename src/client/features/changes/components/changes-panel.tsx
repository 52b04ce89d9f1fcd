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
import { recordedDeltaSource } from '../../../lib/delta-labels';
import { changesQueries } from '../api/changes-queries';
import { ChangeWhy, type Between } from './change-why';
import { changeLists } from '../../../../shared/change-lists';
import {
  CHANGES_SINCE,
  DEFAULT_SINCE,
  parseSince,
  sinceLabel,
  type ChangesSince,
} from '../utils/since';
import { useAsOf } from '../../../lib/as-of';
import { displayName } from '../../../lib/display-name';
import { t } from '../../../lib/i18n';

/** The method changes a comparison crosses, in words; null when it crosses none unannounced. */
function methodWords(changes: readonly MethodMark[]): string | null {
  const held = changes.filter((c) => !c.comparable);
  if (held.length === 0) return null;
  return held
    .map((c) =>
      t('changes.methodWords', {
        from: c.from,
        to: c.to,
        date: formatUtcDateTime(c.as_of),
      }),
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
      {categories ? (
        // The upstream's category labels, as it sent them.
        <span className="muted change-why" translate="no">
          {' '}
          {categories}
        </span>
      ) : null}
    </>
  );
}

function TierMove({ change }: { change: CountryChange }) {
  return (
    <span className="tier-move">
      <TierBadge tier={change.then.tier} /> <span aria-hidden="true">→</span>
      <span className="visually-hidden">{t('changes.to')}</span>{' '}
      <TierBadge tier={change.now.tier} />
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
        <h2 id="changes-heading">{t('changes.heading')}</h2>
        <div className="segmented" role="group" aria-label={t('changes.compareWith')}>
          {CHANGES_SINCE.map((option) => (
            <button
              key={option}
              type="button"
              aria-pressed={since === option}
              onClick={() => setSince(option)}
            >
              {sinceLabel(option)}
            </button>
          ))}
        </div>
      </div>
      {query.isPending ? (
        <Skeleton label={t('changes.loading')} lines={6} />
      ) : query.isError && !query.data ? (
        <QueryError
          what={t('changes.heading')}
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      ) : !query.data.data.from_batch || !query.data.data.to_batch || !lists || !between ? (
        <NothingToCompare since={since} latest={query.data.data.to_batch?.as_of ?? null} />
      ) : (
        <>
          <p className="panel-sub">
            {t('changes.compared', {
              to: formatUtcDateTime(query.data.data.to_batch.as_of),
              from: formatUtcDateTime(query.data.data.from_batch.as_of),
              count: query.data.data.countries.length,
              source: recordedDeltaSource(),
            })}
          </p>
          {method ? (
            <p className="method-change-note" role="note">
              <strong>{t('changes.methodChangedLead')}</strong>
              {method}
              {t('changes.methodCaveat')}
            </p>
          ) : null}
          <div className="changes-grid">
            <ChangeList
              between={between}
              title={t('changes.riskRose')}
              items={lists.riskRisers}
              none={t('changes.noRiskRose')}
              render={(c) => <Moved change={c} by="delta_risk" />}
            />
            <ChangeList
              between={between}
              title={t('changes.riskFell')}
              items={lists.riskFallers}
              none={t('changes.noRiskFell')}
              render={(c) => <Moved change={c} by="delta_risk" />}
            />
            <ChangeList
              between={between}
              title={t('changes.activeRose')}
              items={lists.activeRisers}
              none={t('changes.noActiveRose')}
              render={(c) => <Moved change={c} by="delta_active" />}
            />
            <ChangeList
              between={between}
              title={t('changes.activeFell')}
              items={lists.activeFallers}
              none={t('changes.noActiveFell')}
              render={(c) => <Moved change={c} by="delta_active" />}
            />
            <ChangeList
              between={between}
              title={t('changes.tierUp')}
              items={lists.tierUp}
              none={t('changes.none')}
              render={(c) => <TierMove change={c} />}
            />
            <ChangeList
              between={between}
              title={t('changes.tierDown')}
              items={lists.tierDown}
              none={t('changes.none')}
              render={(c) => <TierMove change={c} />}
            />
            <PresenceList title={t('changes.entered')} items={query.data.data.entered} />
            <PresenceList title={t('changes.left')} items={query.data.data.left} />
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
        {since === 'previous'
          ? t('changes.nothingYet')
          : t('changes.nothingApart', { span: sinceLabel(since) })}
      </p>
    );
  }
  return (
    <p className="empty">
      {t('changes.onlyOne', { date: formatUtcDateTime(latest) })}
      {earlier > 0 ? t('changes.earlier', { count: earlier }) : ''}
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
        <p className="muted">{t('changes.none')}</p>
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
