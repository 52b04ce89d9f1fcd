import { Link } from '../../../lib/app-link';
import type { ExposureResponse } from '../../../../shared/sites-api';
import { DISTANCE_HALF_KM } from '../../../../shared/site-exposure';
import { TableHead, TableRegion } from '../../../components/data-table';
import { TierBadge } from '../../../components/tier-badge';
import { formatInteger, formatScore } from '../../../lib/format';
import { t } from '../../../lib/i18n';
import { tierWord } from '../../../lib/tier-words';
import { kindWord, siteCountryName } from '../utils/exposure-words';

type RiskySite = ExposureResponse['riskiest'][number];

/** Which country gives the weighted risk, when it is not the site's own. */
function WeightedBy({ site }: { site: RiskySite }) {
  const by = site.weighted_by;
  if (!by || by.iso === site.iso) return null;
  return (
    <span className="muted">
      {' '}
      {t('exposurePage.weightedByCountry', {
        country: siteCountryName(by.iso),
        km: formatInteger(Math.round(by.km)),
      })}
    </span>
  );
}

/** Our override of the site's country (issue 31): the tier shown is ours, the provider's beside. */
function OverrideLabel({ site }: { site: RiskySite }) {
  return (
    <span className="muted override-label">
      {' '}
      {t('exposurePage.ourOverride')} ({t('brief.quoted', { text: site.override?.reason ?? '' })})
      {t('exposurePage.providersTier', {
        tier: site.provider_tier ? tierWord(site.provider_tier) : t('exposurePage.noTier'),
      })}
    </span>
  );
}

/**
 * The sites most exposed: people × distance-weighted risk (issue 33, point 6); a country we
 * override counts by our tier. On a phone each site is a card, each figure named by its column
 * (exposure.css): seven columns at 375 px wrapped a site's name over three lines.
 */
export function RiskiestSites({ answer }: { answer: ExposureResponse }) {
  return (
    <section className="panel riskiest-sites" aria-labelledby="riskiest-heading">
      <h2 id="riskiest-heading">{t('exposurePage.riskiest')}</h2>
      <p className="panel-sub" id="riskiest-formula">
        {t('exposurePage.riskiestFormula', { km: formatInteger(DISTANCE_HALF_KM) })}
      </p>
      {answer.riskiest.length === 0 ? (
        <p className="empty">{t('exposurePage.noSites')}</p>
      ) : (
        <TableRegion label={t('exposurePage.riskiestTable')}>
          <table
            className="data-table riskiest-table phone-cards"
            aria-describedby="riskiest-formula"
          >
            <caption className="visually-hidden">{t('exposurePage.riskiestCaption')}</caption>
            <TableHead
              columns={[
                { label: t('exposurePage.site') },
                { label: t('exposurePage.country') },
                { label: t('table.tier') },
                { label: t('table.risk'), className: 'num' },
                { label: t('exposurePage.weightedRisk'), className: 'num' },
                { label: t('exposurePage.people'), className: 'num' },
                { label: t('exposurePage.exposure'), className: 'num' },
              ]}
            />
            <tbody>
              {answer.riskiest.map((site) => (
                <tr key={site.id}>
                  <th scope="row">
                    <Link to={`/sites/${site.id}`} translate="no">
                      {site.name}
                    </Link>
                    <span className="muted site-kind"> {kindWord(site.kind)}</span>
                  </th>
                  <td data-label={t('exposurePage.country')}>{siteCountryName(site.iso)}</td>
                  <td data-label={t('table.tier')}>
                    <TierBadge tier={site.tier} />
                    {site.override ? <OverrideLabel site={site} /> : null}
                  </td>
                  <td className="num" data-label={t('table.risk')}>
                    {formatScore(site.risk)}
                  </td>
                  <td className="num" data-label={t('exposurePage.weightedRisk')}>
                    {formatScore(site.weighted_risk)}
                    <WeightedBy site={site} />
                  </td>
                  <td className="num" data-label={t('exposurePage.people')}>
                    {formatInteger(site.people)}
                  </td>
                  <td className="num" data-label={t('exposurePage.exposure')}>
                    {formatScore(site.exposure)}
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
