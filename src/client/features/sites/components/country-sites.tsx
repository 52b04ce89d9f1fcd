import { useQuery } from '@tanstack/react-query';
import { Link } from '../../../lib/app-link';
import { siteListQueries } from '../../../lib/site-list-queries';
import { formatInteger } from '../../../lib/format';

const SHOWN = 50;

/**
 * "Our sites here" on a country page: how many of our sites and people are in the country, and
 * a list of them (most people first). Nothing at all when there are none, or when the sites
 * cannot be read (no history store, or a viewer the BFF does not show sites to).
 */
export function CountrySites({ iso, enabled }: { iso: string; enabled: boolean }) {
  const query = useQuery({
    ...siteListQueries.list({ tiers: [], countries: [iso], kinds: [], tag: null }),
    enabled,
  });
  const sites = query.data?.data.sites ?? [];
  if (sites.length === 0) return null;
  const people = sites.reduce((sum, site) => sum + (site.people ?? 0), 0);
  const ordered = [...sites].sort(
    (a, b) => (b.people ?? 0) - (a.people ?? 0) || a.name.localeCompare(b.name, 'en'),
  );
  return (
    <section className="panel country-sites" aria-labelledby="country-sites-heading">
      <div className="panel-head">
        <h2 id="country-sites-heading">Our sites here</h2>
        <p className="panel-sub">
          {formatInteger(sites.length)} {sites.length === 1 ? 'site' : 'sites'},{' '}
          {formatInteger(people)} people.{' '}
          <Link to={`/exposure?country=${iso}`}>Exposure in this country</Link>
        </p>
      </div>
      <ul className="country-site-list">
        {ordered.slice(0, SHOWN).map((site) => (
          <li key={site.id}>
            <Link to={`/sites/${site.id}`}>{site.name}</Link>{' '}
            <span className="muted">
              {site.kind}
              {site.people !== null ? `, ${formatInteger(site.people)} people` : ''}
            </span>
          </li>
        ))}
      </ul>
      {sites.length > SHOWN ? (
        <p className="muted">
          The {SHOWN} with most people of {formatInteger(sites.length)};{' '}
          <Link to={`/exposure?country=${iso}`}>all on the exposure page</Link>.
        </p>
      ) : null}
    </section>
  );
}
