import { Link } from '../../../lib/app-link';
import type { ExposureResponse } from '../../../../shared/sites-api';
import { TableHead, TableRegion } from '../../../components/data-table';
import { TierBadge } from '../../../components/tier-badge';
import { countryName } from '../../../lib/country-names';
import { formatInteger, formatScore } from '../../../lib/format';
import { tierLabel } from '../../../../shared/tiers';

/** Our override of the site's country (issue 31): the tier shown is ours, the provider's beside. */
function OverrideLabel({ site }: { site: ExposureResponse['riskiest'][number] }) {
  return (
    <span className="muted override-label">
      {' '}
      our override (“{site.override?.reason}”); provider’s:{' '}
      {site.provider_tier ? tierLabel(site.provider_tier) : 'none'}
    </span>
  );
}

/** The sites in the riskiest countries (our tier first where we override one, else highest risk first; then most people). */
export function RiskiestSites({ answer }: { answer: ExposureResponse }) {
  return (
    <section className="panel riskiest-sites" aria-labelledby="riskiest-heading">
      <h2 id="riskiest-heading">Riskiest sites</h2>
      {answer.riskiest.length === 0 ? (
        <p className="empty">No sites match these filters.</p>
      ) : (
        <TableRegion label="Riskiest sites table">
          <table className="data-table">
            <caption className="visually-hidden">Sites by their country&apos;s risk</caption>
            <TableHead
              columns={[
                { label: 'Site' },
                { label: 'Country' },
                { label: 'Tier' },
                { label: 'Risk', className: 'num' },
                { label: 'People', className: 'num' },
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
                  <td className="num">{formatInteger(site.people)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </section>
  );
}
