import { Link } from '../../../lib/app-link';
import type { ExposureMove, ExposurePeriod, ExposureResponse } from '../../../../shared/sites-api';
import { TierBadge } from '../../../components/tier-badge';
import { countryName } from '../../../lib/country-names';
import { displayName } from '../../../lib/display-name';
import { formatInteger, formatScore, formatUtcDateTime } from '../../../lib/format';
import { t } from '../../../lib/i18n';

/** The periods "moved" compares with, in order, each with its words' key. */
export const PERIOD_KEYS = {
  previous_batch: 'exposurePage.previousBatch',
  day: 'exposurePage.hours24',
  week: 'exposurePage.days7',
} as const satisfies Record<ExposurePeriod, string>;
export const PERIODS = Object.keys(PERIOD_KEYS) as ExposurePeriod[];

export function MoveItem({ move }: { move: ExposureMove }) {
  const name = displayName(move.iso, move.name ?? countryName(move.iso) ?? move.iso);
  const more = move.sites - move.examples.length;
  return (
    <li className="exposure-move">
      <p className="move-head">
        <Link to={`/country/${move.iso}`}>{name}</Link>{' '}
        <span className="move-tiers">
          <TierBadge tier={move.tier_before} />{' '}
          <span aria-hidden="true">{t('exposurePage.arrow')}</span>
          <span className="visually-hidden">{t('exposurePage.to')}</span>{' '}
          <TierBadge tier={move.tier_now} />
        </span>{' '}
        <span className="muted">
          {t('exposurePage.moveNumbers', {
            riskBefore: formatScore(move.risk_before),
            riskNow: formatScore(move.risk_now),
            activeBefore: formatScore(move.active_before),
            activeNow: formatScore(move.active_now),
          })}
        </span>
      </p>
      <p className="move-sites">
        {t('exposurePage.sitesPeople', {
          count: move.sites,
          sites: formatInteger(move.sites),
          people: formatInteger(move.people),
        })}{' '}
        {move.examples.map((site, i) => (
          <span key={site.id}>
            {i > 0 ? t('exposurePage.listJoin') : ''}
            <Link to={`/sites/${site.id}`} translate="no">
              {site.name}
            </Link>
          </span>
        ))}
        {more > 0 ? t('exposurePage.andMore', { count: more, more: formatInteger(more) }) : ''}
      </p>
    </li>
  );
}

/** The countries of ours whose numbers moved since the chosen period's batch. */
export function ExposureMoved({
  answer,
  period,
  onPeriod,
}: {
  answer: ExposureResponse;
  period: ExposurePeriod;
  onPeriod: (period: ExposurePeriod) => void;
}) {
  const moved = answer.moved[period];
  return (
    <section className="panel exposure-moved" aria-labelledby="exposure-moved-heading">
      <div className="panel-head">
        <h2 id="exposure-moved-heading">{t('exposurePage.movedHeading')}</h2>
        <fieldset className="period-choice">
          <legend className="visually-hidden">{t('exposurePage.comparedWith')}</legend>
          {PERIODS.map((key) => (
            <label key={key}>
              <input
                type="radio"
                name="exposure-moved-period"
                checked={period === key}
                onChange={() => onPeriod(key)}
              />
              {t(PERIOD_KEYS[key])}
            </label>
          ))}
        </fieldset>
      </div>
      {moved.since === null ? (
        <p className="empty">{t('exposurePage.nothingThatLongAgo')}</p>
      ) : (
        <>
          <p className="panel-sub">
            {t('exposurePage.comparedWithBatch', { date: formatUtcDateTime(moved.since) })}
          </p>
          {moved.countries.length === 0 ? (
            <p className="empty">{t('exposurePage.noneMoved')}</p>
          ) : (
            <ul className="exposure-moves">
              {moved.countries.map((move) => (
                <MoveItem key={move.iso} move={move} />
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
