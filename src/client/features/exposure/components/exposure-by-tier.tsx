import type { ExposureResponse, ExposureWeight } from '../../../../shared/sites-api';
import { compareTiers } from '../../../../shared/tiers';
import { TableHead, TableRegion } from '../../../components/data-table';
import { TierBadge } from '../../../components/tier-badge';
import { formatInteger, formatScore } from '../../../lib/format';
import { t } from '../../../lib/i18n';

/** "Exposure index (people-weighted)": what the index weighs sites by, in the page language. */
export function indexLabel(weight: ExposureWeight): string {
  return weight === 'people' ? t('exposurePage.indexByPeople') : t('exposurePage.indexByValue');
}

/** The headline figures and our sites and people in each tier of their country. */
export function ExposureByTier({ answer }: { answer: ExposureResponse }) {
  // The team view (issue 31) counts by our tier; the provider's count stays beside it.
  const provider = answer.provider
    ? new Map(answer.provider.by_tier.map((r) => [r.tier, r]))
    : null;
  const rows = [...answer.by_tier].sort((a, b) =>
    a.tier === 'unknown' ? 1 : b.tier === 'unknown' ? -1 : compareTiers(a.tier, b.tier),
  );
  return (
    <section className="panel exposure-tiers" aria-labelledby="exposure-tiers-heading">
      <h2 id="exposure-tiers-heading">{t('exposurePage.byTierHeading')}</h2>
      <dl className="exposure-facts">
        <div>
          <dt>{t('exposurePage.sites')}</dt>
          <dd>{formatInteger(answer.sites)}</dd>
        </div>
        <div>
          <dt>{t('exposurePage.people')}</dt>
          <dd>{formatInteger(answer.people)}</dd>
        </div>
        <div>
          <dt>{indexLabel(answer.weight)}</dt>
          <dd>{formatScore(answer.index.now)}</dd>
        </div>
      </dl>
      {rows.length === 0 ? (
        <p className="empty">{t('exposurePage.noSites')}</p>
      ) : (
        <TableRegion label={t('exposurePage.byTierTable')}>
          <table className="data-table">
            <caption className="visually-hidden">{t('exposurePage.byTierCaption')}</caption>
            <TableHead
              columns={[
                { label: t('table.tier') },
                { label: t('exposurePage.sites'), className: 'num' },
                { label: t('exposurePage.people'), className: 'num' },
                ...(provider
                  ? [
                      { label: t('exposure.providerSites'), className: 'num' },
                      { label: t('exposure.providerPeople'), className: 'num' },
                    ]
                  : []),
              ]}
            />
            <tbody>
              {rows.map((row) => (
                <tr key={row.tier}>
                  <th scope="row">
                    {row.tier === 'unknown' ? (
                      <span className="muted">{t('overview.noCurrentData')}</span>
                    ) : (
                      <TierBadge tier={row.tier} />
                    )}
                  </th>
                  <td className="num">{formatInteger(row.sites)}</td>
                  <td className="num">{formatInteger(row.people)}</td>
                  {provider ? (
                    <>
                      <td className="num">{formatInteger(provider.get(row.tier)?.sites ?? 0)}</td>
                      <td className="num">{formatInteger(provider.get(row.tier)?.people ?? 0)}</td>
                    </>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </section>
  );
}
