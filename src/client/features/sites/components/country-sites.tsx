import { useQuery } from '@tanstack/react-query';
import type { Site } from '../../../../shared/sites-api';
import { TableHead, TableRegion } from '../../../components/data-table';
import { Link } from '../../../lib/app-link';
import { countryName } from '../../../lib/country-names';
import { displayName } from '../../../lib/display-name';
import { NO_SITE_FILTERS } from '../../../lib/site-filters';
import { siteListQueries } from '../../../lib/site-list-queries';
import { formatInteger } from '../../../lib/format';
import { t } from '../../../lib/i18n';
import { formatKm, sitesWithinReach } from '../utils/distance';
import { kindWord } from '../../../lib/site-kind-word';

const SHOWN = 50;

const peopleOf = (sites: readonly Pick<Site, 'people'>[]) =>
  sites.reduce((sum, site) => sum + (site.people ?? 0), 0);

/**
 * "Our sites here" on a country page: how many of our sites and people are in the country, and
 * a list of them (most people first). Nothing at all when there are none, or when the sites
 * cannot be read (no history store, or a viewer the BFF does not show sites to).
 */
function SitesHere({ iso, enabled }: { iso: string; enabled: boolean }) {
  const query = useQuery({
    ...siteListQueries.list({ tiers: [], countries: [iso], kinds: [], tag: null }),
    enabled,
  });
  const sites = query.data?.data.sites ?? [];
  if (sites.length === 0) return null;
  const ordered = [...sites].sort(
    (a, b) => (b.people ?? 0) - (a.people ?? 0) || a.name.localeCompare(b.name, 'en'),
  );
  return (
    <section className="panel country-sites" aria-labelledby="country-sites-heading">
      <div className="panel-head">
        <h2 id="country-sites-heading">{t('sites.hereHeading')}</h2>
        <p className="panel-sub">
          {t('sites.hereCount', {
            count: sites.length,
            shown: formatInteger(sites.length),
            people: formatInteger(peopleOf(sites)),
          })}{' '}
          <Link to={`/exposure?country=${iso}`}>{t('sites.exposureHere')}</Link>
        </p>
      </div>
      <ul className="country-site-list">
        {ordered.slice(0, SHOWN).map((site) => (
          <li key={site.id}>
            <Link to={`/sites/${site.id}`} translate="no">
              {site.name}
            </Link>{' '}
            <span className="muted">
              {kindWord(site.kind)}
              {site.people !== null
                ? t('sites.peopleCount', { shown: formatInteger(site.people) })
                : ''}
            </span>
          </li>
        ))}
      </ul>
      {sites.length > SHOWN ? (
        <p className="muted">
          {t('sites.mostPeopleOf', {
            shown: formatInteger(SHOWN),
            total: formatInteger(sites.length),
          })}
          <Link to={`/exposure?country=${iso}`}>{t('sites.allOnExposure')}</Link>.
        </p>
      ) : null}
    </section>
  );
}

/**
 * Our sites in neighbouring countries that have this country within their rule's radius, with
 * the distance to its shape, nearest first: what a move here would alert about besides the
 * sites in it. Nothing at all when there are none. Reads every site (the map's cache entry).
 */
function SitesWithinReach({ iso, enabled }: { iso: string; enabled: boolean }) {
  const query = useQuery({ ...siteListQueries.list(NO_SITE_FILTERS), enabled });
  const reach = sitesWithinReach(query.data?.data.sites ?? [], iso);
  if (reach.length === 0) return null;
  const name = displayName(iso, countryName(iso) ?? iso);
  return (
    <section className="panel country-reach" aria-labelledby="country-reach-heading">
      <div className="panel-head">
        <h2 id="country-reach-heading">{t('sites.reachHeading')}</h2>
        <p className="panel-sub">
          {t('sites.reachCount', {
            count: reach.length,
            shown: formatInteger(reach.length),
            people: formatInteger(peopleOf(reach.map((r) => r.site))),
            name,
          })}
        </p>
      </div>
      <TableRegion label={t('sites.reachTable')}>
        <table className="data-table">
          <caption className="visually-hidden">{t('sites.reachCaption', { name })}</caption>
          <TableHead
            columns={[
              { label: t('sites.site') },
              { label: t('sites.in') },
              { label: t('sites.distance'), className: 'num' },
              { label: t('sites.people'), className: 'num' },
            ]}
          />
          <tbody>
            {reach.slice(0, SHOWN).map(({ site, km }) => (
              <tr key={site.id}>
                <th scope="row">
                  <Link to={`/sites/${site.id}`} translate="no">
                    {site.name}
                  </Link>
                  <span className="muted site-kind"> {kindWord(site.kind)}</span>
                </th>
                <td>
                  <Link to={`/country/${site.iso}`}>
                    {displayName(site.iso, countryName(site.iso) ?? site.iso)}
                  </Link>
                </td>
                <td className="num">
                  <bdi>{formatKm(km)}</bdi>
                </td>
                <td className="num">{formatInteger(site.people)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableRegion>
      {reach.length > SHOWN ? (
        <p className="muted">
          {t('sites.nearestOf', {
            shown: formatInteger(SHOWN),
            total: formatInteger(reach.length),
          })}
        </p>
      ) : null}
    </section>
  );
}

/** The country page's sites: ours in the country, and ours near enough to be alerted about it. */
export function CountrySites({ iso, enabled }: { iso: string; enabled: boolean }) {
  return (
    <>
      <SitesHere iso={iso} enabled={enabled} />
      <SitesWithinReach iso={iso} enabled={enabled} />
    </>
  );
}
