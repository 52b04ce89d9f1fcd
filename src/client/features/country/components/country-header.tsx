import { useEffect, type ReactNode } from 'react';
import type { Country } from '../../../../shared/schemas/country';
import { Delta } from '../../../components/delta';
import { HeadlineDelta } from '../../../components/headline-delta';
import { MethodCaveat } from '../../../components/method-caveat';
import type { MethodMark } from '../../../../shared/method-api';
import { TierBadge } from '../../../components/tier-badge';
import {
  formatInteger,
  formatScore,
  formatUtcDateTime,
  formatWhen,
  humanise,
  na,
} from '../../../lib/format';
import { confidenceNote } from '../utils/confidence';
import { ShareButton } from '../../../components/share-button';
import { displayName, formalNameTitle } from '../../../lib/display-name';
import { markOnceAfterPaint, PERF_MARKS } from '../../../lib/perf-marks';
import { t } from '../../../lib/i18n';

/** Everything about the country at a glance; every optional field reads "n/a" when missing. */
export function CountryHeader({
  country,
  asOf,
  now,
  recordedDelta = null,
  methodChanges = [],
  why = null,
  changeArriving = false,
}: {
  country: Country;
  asOf: string;
  now: number;
  /** The risk change from the batch recorded before this one (null: not both recorded here). */
  recordedDelta?: number | null;
  /** Method changes between that batch and this one (issue 31): no subtraction, a caveat. */
  methodChanges?: readonly MethodMark[];
  /** "Why it moved", a disclosure placed right under the change it explains (issue 33). */
  why?: ReactNode;
  /** The recorded change is still being asked for: its room is kept empty until it comes. */
  changeArriving?: boolean;
}) {
  useEffect(() => markOnceAfterPaint(PERF_MARKS.countryHeaderDrawn), []);
  const note = confidenceNote(country);
  return (
    <section className="country-header" aria-labelledby="country-heading">
      <div className="country-title">
        <h1 id="country-heading">
          {displayName(country.iso, country.name)} <span className="iso">{country.iso}</span>
        </h1>
        {formalNameTitle(country.iso, country.name) ? (
          <p className="muted formal-name">{country.name}</p>
        ) : null}
        <ShareButton />
      </div>
      <div className="country-score">
        <span className="country-risk" data-testid="country-risk">
          {formatScore(country.risk)}
        </span>
        <span className="muted">{t('country.risk')}</span>
        <TierBadge tier={country.tier} />
      </div>
      <CountryDeltas
        country={country}
        recordedDelta={recordedDelta}
        changeArriving={changeArriving}
      />
      <MethodCaveat changes={methodChanges} then={t('country.methodThen')} />
      {why}
      {note ? (
        <p className="confidence-note" role="note">
          {note}
        </p>
      ) : null}
      <CountryFacts country={country} asOf={asOf} now={now} />
    </section>
  );
}

/**
 * One headline change (issue 33): ours where both batches are recorded here, the provider's own
 * figure beside it by name; the active score's change is the provider's. While ours is being
 * asked for, its room is kept (issue 32: no layout shift).
 */
function CountryDeltas({
  country,
  recordedDelta,
  changeArriving,
}: {
  country: Country;
  recordedDelta: number | null;
  changeArriving: boolean;
}) {
  if (changeArriving) return <p className="country-deltas" aria-busy="true" />;
  return (
    <p className="country-deltas" data-testid="country-deltas">
      {typeof country.delta_headline === 'number' || typeof recordedDelta === 'number' ? (
        <>
          <HeadlineDelta provider={country.delta_headline} recorded={recordedDelta} verbose />
          <br />
        </>
      ) : null}
      <Delta value={country.delta_active} verbose suffix={t('delta.inActive')} />{' '}
      <span className="muted">{t('delta.upstreamPeriod')}</span>
    </p>
  );
}

/** The provider's facts about the country; every missing one reads "n/a". */
function CountryFacts({ country, asOf, now }: { country: Country; asOf: string; now: number }) {
  const vectors = country.threat_vectors ?? [];
  return (
    <dl className="facts-grid">
      <div>
        <dt>{t('overview.static')}</dt>
        <dd>{formatScore(country.static)}</dd>
      </div>
      <div>
        <dt>{t('overview.active')}</dt>
        <dd>{formatScore(country.active)}</dd>
      </div>
      <div>
        <dt>{t('country.confidence')}</dt>
        <dd>
          {typeof country.confidence === 'number'
            ? t('country.confidenceOf', { value: formatInteger(country.confidence) })
            : na()}
        </dd>
      </div>
      <div>
        <dt>{t('country.profile')}</dt>
        <dd>{humanise(country.profile)}</dd>
      </div>
      <div>
        <dt>{t('country.sources')}</dt>
        <dd>{formatInteger(country.source_count)}</dd>
      </div>
      <div>
        <dt>{t('overview.dataGenerated')}</dt>
        <dd>
          <time dateTime={asOf}>
            <span className="screen-only">{formatWhen(asOf, now)}</span>
            {/* Paper is read later: the batch's time itself (issue 33, point 9). */}
            <span className="print-only">{formatUtcDateTime(asOf)}</span>
          </time>
        </dd>
      </div>
      <div className="facts-wide">
        <dt>{t('country.threatVectors')}</dt>
        <dd>
          {vectors.length === 0 ? (
            na()
          ) : (
            <ul className="chips">
              {vectors.map((vector) => (
                <li key={vector}>{humanise(vector)}</li>
              ))}
            </ul>
          )}
        </dd>
      </div>
    </dl>
  );
}
