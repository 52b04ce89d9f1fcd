import { Link } from '../../../lib/app-link';
import type { Site } from '../../../../shared/sites-api';
import { TableHead, TableRegion } from '../../../components/data-table';
import { TierBadge } from '../../../components/tier-badge';
import { countryName } from '../../../lib/country-names';
import { displayName } from '../../../lib/display-name';
import { formatInteger, formatScore } from '../../../lib/format';
import { t } from '../../../lib/i18n';
import { formatKm, nearest, radiusOf } from '../utils/distance';

const HOTSPOTS_SHOWN = 5;

/** What the page knows of a country in the newest batch (from `/api/countries`). */
export interface CountryFigure {
  iso: string;
  name?: string | null;
  tier?: string | null;
  risk?: number | null;
  lat?: number | null;
  lng?: number | null;
}

/**
 * One distance per country on the site page (issue 33, point 6: "Mali 0 km" and "Mali 697 km"):
 * the site's own country is "Site is here", a country within 300 km is at its border distance
 * (the site's stored `nearby`), and only a country further out is measured to its centre.
 */
function distanceTo(site: Site, iso: string, centreKm: number): { km: number; text: string } {
  if (iso === site.iso) return { km: 0, text: t('sites.siteIsHere') };
  const border = site.nearby.find((n) => n.iso === iso);
  if (border) return { km: border.km, text: t('sites.toBorder', { km: formatKm(border.km) }) };
  return { km: centreKm, text: t('sites.toCentre', { km: formatKm(centreKm) }) };
}

/** The nearest border of another country, said once. */
function nearestBorder(site: Site, figures: ReadonlyMap<string, CountryFigure> | null): string {
  const other = site.nearby.filter((n) => n.iso !== site.iso).sort((a, b) => a.km - b.km)[0];
  if (!other) return t('sites.noBorderNear');
  const name = displayName(
    other.iso,
    figures?.get(other.iso)?.name ?? countryName(other.iso) ?? other.iso,
  );
  return t('sites.nearestBorder', { name, km: formatKm(other.km) });
}

/** The hotspots nearest the site, each at the one distance the page gives its country. */
export function NearestHotspots({
  site,
  hotspots,
}: {
  site: Site;
  /** Undefined while the list loads. */
  hotspots: readonly CountryFigure[] | undefined;
}) {
  const rows = nearest(site, hotspots ?? [], (hotspots ?? []).length)
    .map(({ place, km }) => ({ place, distance: distanceTo(site, place.iso, km) }))
    .sort((a, b) => a.distance.km - b.distance.km)
    .slice(0, HOTSPOTS_SHOWN);
  return (
    <section className="panel nearest-hotspots" aria-labelledby="nearest-hotspots-heading">
      <h2 id="nearest-hotspots-heading">{t('sites.nearestHotspots')}</h2>
      {hotspots === undefined ? (
        <p className="muted" role="status">
          {t('sites.loadingHotspots')}
        </p>
      ) : rows.length === 0 ? (
        <p className="empty">{t('sites.noHotspotPlaced')}</p>
      ) : (
        <TableRegion label={t('sites.nearestHotspotsTable')}>
          <table className="data-table">
            <caption className="visually-hidden">
              {t('sites.nearestHotspotsCaption', { shown: formatInteger(HOTSPOTS_SHOWN) })}
            </caption>
            <TableHead
              columns={[
                { label: t('sites.hotspot') },
                { label: t('sites.tier') },
                { label: t('sites.risk'), className: 'num' },
                { label: t('sites.distance'), className: 'num' },
              ]}
            />
            <tbody>
              {rows.map(({ place, distance }) => (
                <tr key={place.iso}>
                  <th scope="row">
                    <Link to={`/country/${place.iso}`}>
                      {displayName(place.iso, place.name ?? countryName(place.iso) ?? place.iso)}
                    </Link>
                  </th>
                  <td>
                    <TierBadge tier={place.tier} />
                  </td>
                  <td className="num">{formatScore(place.risk)}</td>
                  {/* Words around the number ("660 km to its centre"): isolated, so a
                      right-to-left language reads them in its order in a left-to-right cell. */}
                  <td className="num">
                    <bdi>{distance.text}</bdi>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </section>
  );
}

/**
 * The countries whose shapes lie within the site rule's radius (the site's own at 0 km), with
 * their tiers; those further out (up to 300 km, what the BFF keeps per site) are listed after.
 */
export function NeighbourCountries({
  site,
  figures,
}: {
  site: Site;
  figures: ReadonlyMap<string, CountryFigure> | null;
}) {
  const radius = radiusOf(site);
  return (
    <section className="panel neighbour-countries" aria-labelledby="neighbours-heading">
      <h2 id="neighbours-heading">{t('sites.withinReach')}</h2>
      <p className="panel-sub">
        {site.alert?.on === false
          ? t('sites.ruleOffRadius', { km: formatKm(radius) })
          : t('sites.ruleWatches', { km: formatKm(radius) })}{' '}
        {nearestBorder(site, figures)}
      </p>
      <TableRegion label={t('sites.withinReachTable')}>
        <table className="data-table">
          <caption className="visually-hidden">{t('sites.withinReachCaption')}</caption>
          <TableHead
            columns={[
              { label: t('sites.country') },
              { label: t('sites.tier') },
              { label: t('sites.distance'), className: 'num' },
              { label: t('sites.within', { km: formatKm(radius) }) },
            ]}
          />
          <tbody>
            {site.nearby.map(({ iso, km }) => {
              const figure = figures?.get(iso);
              return (
                <tr key={iso}>
                  <th scope="row">
                    <Link to={`/country/${iso}`}>
                      {displayName(iso, figure?.name ?? countryName(iso) ?? iso)}
                    </Link>
                  </th>
                  <td>
                    <TierBadge tier={figure?.tier} />
                  </td>
                  <td className="num">
                    <bdi>{iso === site.iso ? t('sites.siteIsHere') : formatKm(km)}</bdi>
                  </td>
                  <td>{km <= radius ? t('sites.yes') : t('sites.no')}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableRegion>
    </section>
  );
}
