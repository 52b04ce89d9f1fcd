import { useQuery } from '@tanstack/react-query';
import { displayName } from '../../../lib/display-name';
import { useCan } from '../../../lib/me-queries';
import { useToggleFollow } from '../api/watchlist-mutations';
import { FOLLOWING_LIST, watchlistQueries } from '../api/watchlist-queries';
import { t } from '../../../lib/i18n';

/**
 * Follow / unfollow a country: it joins (or leaves) the "Following" list, made on the first
 * follow with the document's rule (|Δ active| ≥ 10). An edit made elsewhere in the meantime is
 * reported (412), never overwritten.
 */
export function FollowButton({
  iso,
  name,
  compact = false,
}: {
  iso: string;
  name: string;
  compact?: boolean;
}) {
  const lists = useQuery(watchlistQueries.list());
  // A viewer follows in a Following list of their own (the team's needs an editor).
  const personal = !useCan('editor');
  const following = lists.data?.data.watchlists.find(
    (l) => l.name === FOLLOWING_LIST && (!personal || l.scope === 'user'),
  );
  const followed = following?.countries.includes(iso) ?? false;
  const mutation = useToggleFollow(iso, following, personal);
  const shown = displayName(iso, name);
  const label = followed
    ? t('table.unfollowName', { name: shown })
    : t('table.followName', { name: shown });
  return (
    <span className="follow">
      <button
        type="button"
        className={`follow-button${followed ? ' is-following' : ''}${compact ? ' compact' : ''}`}
        aria-pressed={followed}
        aria-label={compact ? label : undefined}
        title={label}
        disabled={lists.isPending || mutation.isPending}
        onClick={() => mutation.mutate()}
      >
        <span aria-hidden="true">{followed ? '★' : '☆'}</span>
        {compact ? null : <span>{followed ? t('table.following') : t('table.follow')}</span>}
      </button>
      {mutation.isError ? (
        <span role="alert" className="follow-error">
          {mutation.error.message}
        </span>
      ) : null}
    </span>
  );
}
