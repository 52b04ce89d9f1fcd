import { teamRowExtras } from '../../../../shared/team-index-api';
import { TierBadge } from '../../../components/tier-badge';
import { formatScore, formatUtcDateTime } from '../../../lib/format';

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
        Risk above is the team index{teamName ? ` “${teamName}”` : ''}
        {override ? '; its tier is our override' : ''}.{' '}
        <span className="provider-figure">
          Provider’s risk: {formatScore(provider.risk)} <TierBadge tier={provider.tier} />
        </span>
      </p>
      {override ? (
        <p className="override-note" role="note">
          <strong>Our override:</strong> <TierBadge tier={override.tier} /> instead of the
          provider’s <TierBadge tier={provider.tier} />, because “{override.reason}”. Set by{' '}
          {override.set_by}; ends{' '}
          <time dateTime={override.expires}>{formatUtcDateTime(override.expires)}</time>.
        </p>
      ) : null}
    </div>
  );
}
