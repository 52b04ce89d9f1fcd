import { Link } from '../../../lib/app-link';
import type { ExposureMove, ExposurePeriod, ExposureResponse } from '../../../../shared/sites-api';
import { TierBadge } from '../../../components/tier-badge';
import { countryName } from '../../../lib/country-names';
import { displayName } from '../../../lib/display-name';
import { formatInteger, formatScore, formatUtcDateTime } from '../../../lib/format';

export const PERIOD_LABELS: Record<ExposurePeriod, string> = {
  previous_batch: 'Previous batch',
  day: '24 hours',
  week: '7 days',
};

export function MoveItem({ move }: { move: ExposureMove }) {
  const name = displayName(move.iso, move.name ?? countryName(move.iso) ?? move.iso);
  const more = move.sites - move.examples.length;
  return (
    <li className="exposure-move">
      <p className="move-head">
        <Link to={`/country/${move.iso}`}>{name}</Link>{' '}
        <span className="move-tiers">
          <TierBadge tier={move.tier_before} /> <span aria-hidden="true">→</span>
          <span className="visually-hidden">to</span> <TierBadge tier={move.tier_now} />
        </span>{' '}
        <span className="muted">
          risk {formatScore(move.risk_before)} → {formatScore(move.risk_now)}, active{' '}
          {formatScore(move.active_before)} → {formatScore(move.active_now)}
        </span>
      </p>
      <p className="move-sites">
        {formatInteger(move.sites)} {move.sites === 1 ? 'site' : 'sites'},{' '}
        {formatInteger(move.people)} people:{' '}
        {move.examples.map((site, i) => (
          <span key={site.id}>
            {i > 0 ? ', ' : ''}
            <Link to={`/sites/${site.id}`}>{site.name}</Link>
          </span>
        ))}
        {more > 0 ? ` and ${formatInteger(more)} more` : ''}
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
        <h2 id="exposure-moved-heading">Where our sites&apos; countries moved</h2>
        <fieldset className="period-choice">
          <legend className="visually-hidden">Compared with</legend>
          {(Object.keys(PERIOD_LABELS) as ExposurePeriod[]).map((key) => (
            <label key={key}>
              <input
                type="radio"
                name="exposure-moved-period"
                checked={period === key}
                onChange={() => onPeriod(key)}
              />
              {PERIOD_LABELS[key]}
            </label>
          ))}
        </fieldset>
      </div>
      {moved.since === null ? (
        <p className="empty">No batch recorded that long ago yet: nothing to compare with.</p>
      ) : (
        <>
          <p className="panel-sub">Compared with the batch of {formatUtcDateTime(moved.since)}.</p>
          {moved.countries.length === 0 ? (
            <p className="empty">None of our sites&apos; countries moved.</p>
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
