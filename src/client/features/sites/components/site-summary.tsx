import { Link } from '../../../lib/app-link';
import type { Site } from '../../../../shared/sites-api';
import { Delta } from '../../../components/delta';
import { TierBadge } from '../../../components/tier-badge';
import { countryName } from '../../../lib/country-names';
import { displayName } from '../../../lib/display-name';
import { formatInteger, formatScore, formatUtcDateTime } from '../../../lib/format';
import { t } from '../../../lib/i18n';
import { kindWord } from '../../../lib/site-kind-word';

function Fact({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** The site's own facts; its ref, tags and trip places are the team's text, as typed. */
function SiteFacts({ site }: { site: Site }) {
  return (
    <dl className="exposure-facts">
      <Fact term={t('sites.kind')}>{kindWord(site.kind)}</Fact>
      <Fact term={t('sites.ref')}>
        <code translate="no">{site.ref}</code>
      </Fact>
      <Fact term={t('sites.people')}>{formatInteger(site.people)}</Fact>
      {site.value !== null ? (
        <Fact term={t('sites.value')}>
          {formatInteger(site.value)} <span translate="no">{site.currency ?? ''}</span>
        </Fact>
      ) : null}
      <Fact term={t('sites.where')}>
        <bdi>
          {site.lat.toFixed(3)}, {site.lng.toFixed(3)}
        </bdi>
      </Fact>
      {site.from || site.to ? (
        <Fact term={t('sites.trip')}>
          {t('sites.tripSpan', { from: site.from ?? '…', to: site.to ?? '…' })}
        </Fact>
      ) : null}
      {site.tags.length > 0 ? (
        <Fact term={t('sites.tags')}>
          <span translate="no">{site.tags.join(', ')}</span>
        </Fact>
      ) : null}
    </dl>
  );
}

/** The site itself and its country's numbers in the newest recorded batch. */
export function SiteSummary({ site, asOf }: { site: Site; asOf?: string | null }) {
  const country = site.country;
  const countryLabel = displayName(site.iso, country?.name ?? countryName(site.iso) ?? site.iso);
  return (
    <section className="panel site-summary" aria-labelledby="site-summary-heading">
      <h2 id="site-summary-heading" className="visually-hidden">
        {t('sites.summaryHeading')}
      </h2>
      <SiteFacts site={site} />
      <h3>
        {t('sites.countryLead')}
        <Link to={`/country/${site.iso}`}>{countryLabel}</Link>
      </h3>
      {site.placed_by === 'distance' ? (
        <p className="muted">{t('sites.placedByDistance')}</p>
      ) : null}
      {country && country.risk !== null ? (
        <dl className="exposure-facts">
          <Fact term={t('sites.tier')}>
            <TierBadge tier={country.tier} />
          </Fact>
          <Fact term={t('sites.risk')}>{formatScore(country.risk)}</Fact>
          <Fact term={t('sites.active')}>{formatScore(country.active)}</Fact>
          <Fact term={t('sites.changeInActive')}>
            <Delta value={country.delta_active} />
          </Fact>
        </dl>
      ) : (
        <p className="empty">{t('sites.notInBatch', { name: countryLabel })}</p>
      )}
      {asOf ? (
        <p className="muted">{t('sites.batchOf', { date: formatUtcDateTime(asOf) })}</p>
      ) : null}
    </section>
  );
}
