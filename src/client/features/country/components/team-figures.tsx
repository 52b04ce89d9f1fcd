import { teamRowExtras } from '../../../../shared/team-index-api';
import { TierBadge } from '../../../components/tier-badge';
import { formatScore, formatUtcDateTime } from '../../../lib/format';
import { t } from '../../../lib/i18n';
import { personName } from '../../../lib/person-name';

/**
 * Beside the team index in the country header (issue 31): the provider's own figure, labelled,
 * and our override with its reason and expiry, so ours is never shown instead of theirs without
 * saying so. Nothing in the provider's view (the row carries no team extras).
 */
export function TeamFigures({ country, teamName }: { country: unknown; teamName: string | null }) {
  const extras = teamRowExtras(country);
  if (!extras) return null;
  const { provider, override } = extras;
  return (
    <div className="team-figures" data-testid="team-figures">
      <p>
        {teamName
          ? t('countryPage.teamAboveNamed', { name: teamName })
          : t('countryPage.teamAbove')}
        {override ? t('countryPage.tierIsOverride') : ''}.{' '}
        <span className="provider-figure">
          {t('table.providerRisk')}: {formatScore(provider.risk)} <TierBadge tier={provider.tier} />
        </span>
      </p>
      {override ? (
        <p className="override-note" role="note">
          <strong>{t('brief.ourOverride')}:</strong> <TierBadge tier={override.tier} />{' '}
          {t('countryPage.insteadOf')} <TierBadge tier={provider.tier} />
          {t('countryPage.because', { reason: override.reason })}{' '}
          {t('countryPage.setBy', { who: personName(override.set_by) })}{' '}
          <time dateTime={override.expires}>{formatUtcDateTime(override.expires)}</time>.
        </p>
      ) : null}
    </div>
  );
}
