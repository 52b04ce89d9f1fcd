import { Link } from '../../../lib/app-link';
import type { Site } from '../../../../shared/sites-api';
import { Delta } from '../../../components/delta';
import { TierBadge } from '../../../components/tier-badge';
import { countryName } from '../../../lib/country-names';
import { displayName } from '../../../lib/display-name';
import { formatInteger, formatScore, formatUtcDateTime } from '../../../lib/format';

function Fact({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** The site itself and its country's numbers in the newest recorded batch. */
export function SiteSummary({ site, asOf }: { site: Site; asOf?: string | null }) {
  const country = site.country;
  const countryLabel = displayName(site.iso, country?.name ?? countryName(site.iso) ?? site.iso);
  return (
    <section className="panel site-summary" aria-labelledby="site-summary-heading">
      <h2 id="site-summary-heading" className="visually-hidden">
        The site and its country
      </h2>
      <dl className="exposure-facts">
        <Fact term="Kind">{site.kind}</Fact>
        <Fact term="Ref">
          <code>{site.ref}</code>
        </Fact>
        <Fact term="People">{formatInteger(site.people)}</Fact>
        {site.value !== null ? (
          <Fact term="Value">
            {formatInteger(site.value)} {site.currency ?? ''}
          </Fact>
        ) : null}
        <Fact term="Where">
          {site.lat.toFixed(3)}, {site.lng.toFixed(3)}
        </Fact>
        {site.from || site.to ? (
          <Fact term="Trip">
            {site.from ?? '…'} to {site.to ?? '…'}
          </Fact>
        ) : null}
        {site.tags.length > 0 ? <Fact term="Tags">{site.tags.join(', ')}</Fact> : null}
      </dl>
      <h3>
        Country: <Link to={`/country/${site.iso}`}>{countryLabel}</Link>
      </h3>
      {site.placed_by === 'distance' ? (
        <p className="muted">
          Placed by distance: the point is just outside every country&apos;s shape (a coast or a
          border), so the nearest country was taken.
        </p>
      ) : null}
      {country && country.risk !== null ? (
        <dl className="exposure-facts">
          <Fact term="Tier">
            <TierBadge tier={country.tier} />
          </Fact>
          <Fact term="Risk">{formatScore(country.risk)}</Fact>
          <Fact term="Active">{formatScore(country.active)}</Fact>
          <Fact term="Change in active">
            <Delta value={country.delta_active} />
          </Fact>
        </dl>
      ) : (
        <p className="empty">{countryLabel} is not in the newest recorded batch.</p>
      )}
      {asOf ? <p className="muted">Batch of {formatUtcDateTime(asOf)}.</p> : null}
    </section>
  );
}
