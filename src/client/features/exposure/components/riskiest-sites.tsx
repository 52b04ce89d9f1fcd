import { Link } from '../../../lib/app-link';
import type { ExposureResponse } from '../../../../shared/sites-api';
import { DISTANCE_HALF_KM } from '../../../../shared/site-exposure';
import { TableHead, TableRegion } from '../../../components/data-table';
import { TierBadge } from '../../../components/tier-badge';
import { countryName } from '../../../lib/country-names';
import { formatInteger, formatScore } from '../../../lib/format';
import { tierWord } from '../../../lib/tier-words';

type RiskySite = ExposureResponse['riskiest'][number];

/** Which country gives the weighted risk, when it is not the site's own. */
function WeightedBy({ site }: { site: RiskySite }) {
  const by = site.weighted_by;
  if (!by || by.iso === site.iso) return null;
  return (
    <span className="muted">
      {' '}
      ({countryName(by.iso) ?? by.iso}, {Math.round(by.km)} km)
    </span>
  );
}

/** Our override of the site's country (issue 31): the tier shown is ours, the provider's beside. */
function OverrideLabel({ site }: { site: RiskySite }) {
  return (
    <span className="muted override-label">
      {' '}
      our override (“{site.override?.reason}”); provider’s:{' '}
      {site.provider_tier ? tierWord(site.provider_tier) : 'none'}
    </span>
  );
}

/** The sites most exposed: people × distance-weighted risk (issue 33, point 6); a country we override counts by our tier. */
export function RiskiestSites({ answer }: { answer: ExposureResponse }) {
  return (
    <section className="panel riskiest-sites" aria-labelledby="riskiest-heading">
      <h2 id="riskiest-heading">Riskiest sites</h2>
      <p className="panel-sub" id="riskiest-formula">
        Ranked by exposure = people × weighted risk ÷ 100. Weighted risk is the highest, over the
        countries within the site rule&apos;s radius (its own at 0 km), of risk ÷ (1 + distance ÷{' '}
        {DISTANCE_HALF_KM} km): a country at the border counts in full, one {DISTANCE_HALF_KM} km
        away at half. A site with no people recorded counts as one person.
      </p>
      {answer.riskiest.length === 0 ? (
        <p className="empty">No sites match these filters.</p>
      ) : (
        <TableRegion label="Riskiest sites table">
          <table className="data-table" aria-describedby="riskiest-formula">
            <caption className="visually-hidden">
              Sites by people and distance-weighted risk
            </caption>
            <TableHead
              columns={[
                { label: 'Site' },
                { label: 'Country' },
                { label: 'Tier' },
                { label: 'Risk', className: 'num' },
                { label: 'Weighted risk', className: 'num' },
                { label: 'People', className: 'num' },
                { label: 'Exposure', className: 'num' },
              ]}
            />
            <tbody>
              {answer.riskiest.map((site) => (
                <tr key={site.id}>
                  <th scope="row">
                    <Link to={`/sites/${site.id}`}>{site.name}</Link>
                    <span className="muted site-kind"> {site.kind}</span>
                  </th>
                  <td>{countryName(site.iso) ?? site.iso}</td>
                  <td>
                    <TierBadge tier={site.tier} />
                    {site.override ? <OverrideLabel site={site} /> : null}
                  </td>
                  <td className="num">{formatScore(site.risk)}</td>
                  <td className="num">
                    {formatScore(site.weighted_risk)}
                    <WeightedBy site={site} />
                  </td>
                  <td className="num">{formatInteger(site.people)}</td>
                  <td className="num">{formatScore(site.exposure)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </section>
  );
}
