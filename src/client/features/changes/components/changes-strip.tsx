import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link } from '../../../lib/app-link';
import type { CountryChange } from '../../../../shared/history-api';
import { Delta } from '../../../components/delta';
import { TierBadge } from '../../../components/tier-badge';
import { displayName } from '../../../lib/display-name';
import { changesQueries } from '../api/changes-queries';
import { teamNameOf } from '../../../components/risk-index-switch';
import { teamChangesComputing } from '../../../lib/recorded-deltas';
import { useRiskIndex } from '../../../lib/risk-index';
import { changeLists } from '../../../../shared/change-lists';
import { useAsOf } from '../../../lib/as-of';
import { heldChanges } from '../../../lib/method-caveat';
import { MethodCaveat } from '../../../components/method-caveat';
import { t } from '../../../lib/i18n';

/** Names per line: the strip is a glance, the panel has the lists. */
const SHOWN = 2;

const nameOf = (change: CountryChange) =>
  change.name ? displayName(change.iso, change.name) : change.iso;

function Movers({ items }: { items: readonly CountryChange[] }) {
  return (
    <>
      {items.slice(0, SHOWN).map((change, index) => (
        <span key={change.iso} className="strip-item">
          {index > 0 ? ', ' : null}
          <Link to={`/country/${encodeURIComponent(change.iso)}`}>{nameOf(change)}</Link>{' '}
          <Delta value={change.delta_risk} />
        </span>
      ))}
    </>
  );
}

function TierMoves({ items }: { items: readonly CountryChange[] }) {
  return (
    <>
      {items.slice(0, SHOWN).map((change, index) => (
        <span key={change.iso} className="strip-item">
          {index > 0 ? ', ' : null}
          <Link to={`/country/${encodeURIComponent(change.iso)}`}>{nameOf(change)}</Link>{' '}
          <TierBadge tier={change.then.tier} /> <span aria-hidden="true">→</span>
          <span className="visually-hidden">{t('changes.to')}</span>{' '}
          <TierBadge tier={change.now.tier} />
        </span>
      ))}
      {items.length > SHOWN ? (
        <span className="muted">{t('changes.andMore', { count: items.length - SHOWN })}</span>
      ) : null}
    </>
  );
}

/**
 * What moved, right under the global index (issue 19, point 9): on a phone What changed is two
 * screens down, below the trend. The biggest risers, fallers and tier changes between the two
 * latest recorded batches (the same `/api/changes` entry as the panel), linking to the panel.
 * Wide screens show the panel itself in the first screen, so the strip is hidden there (CSS).
 */
export function ChangesStrip() {
  // In the team view (issue 31) the moves are the team index's, and the strip says so.
  const [index] = useRiskIndex();
  const query = useQuery(changesQueries.since('previous', useAsOf(), index));
  const data = query.data?.data;
  const team = teamNameOf(data);
  const computing = teamChangesComputing(data);
  const lists = useMemo(() => (data ? changeLists(data.countries) : null), [data]);
  const compared = data?.from_batch && data.to_batch && lists;
  const tierMoves = lists ? [...lists.tierUp, ...lists.tierDown] : [];

  return (
    <section className="changes-strip" aria-labelledby="changes-strip-heading">
      <h2 id="changes-strip-heading" className="changes-strip-heading">
        {t('overview.movedHeading')}
      </h2>
      {query.isPending ? (
        <p className="muted" role="status">
          {t('overview.movedLoading')}
        </p>
      ) : computing ? (
        <p className="muted">{t('overview.teamComputing')}</p>
      ) : !compared ? (
        <p className="muted">
          {query.isError ? t('overview.movedError') : t('overview.movedNothing')}
        </p>
      ) : (
        <>
          <MethodCaveat
            changes={heldChanges(data.method_changes)}
            then={t('overview.movesAcrossMethod')}
          />
          <dl className="strip-lines">
            <div>
              {/* In the team view the lines name the team index (the strip's height is fixed). */}
              <dt title={team ? t('overview.teamIndexNamed', { team }) : undefined}>
                {team ? t('overview.teamRose') : t('overview.riskRose')}
              </dt>
              <dd>
                {lists.riskRisers.length > 0 ? (
                  <Movers items={lists.riskRisers} />
                ) : (
                  t('overview.none')
                )}
              </dd>
            </div>
            <div>
              <dt title={team ? t('overview.teamIndexNamed', { team }) : undefined}>
                {team ? t('overview.teamFell') : t('overview.riskFell')}
              </dt>
              <dd>
                {lists.riskFallers.length > 0 ? (
                  <Movers items={lists.riskFallers} />
                ) : (
                  t('overview.none')
                )}
              </dd>
            </div>
            <div>
              <dt>{t('overview.tier')}</dt>
              <dd>
                {tierMoves.length > 0 ? (
                  <TierMoves items={tierMoves} />
                ) : (
                  t('overview.noTierChanges')
                )}
              </dd>
            </div>
          </dl>
        </>
      )}
      <a className="strip-more" href="#what-changed">
        {t('overview.allChanges')}
      </a>
    </section>
  );
}
