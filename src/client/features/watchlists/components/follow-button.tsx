import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DEFAULT_RULES } from '../../../../shared/alerts-api';
import {
  createWatchlist,
  FOLLOWING_LIST,
  inputOf,
  saveWatchlist,
  watchlistQueries,
} from '../api/watchlist-queries';

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
  const queryClient = useQueryClient();
  const lists = useQuery(watchlistQueries.list());
  const following = lists.data?.data.watchlists.find((l) => l.name === FOLLOWING_LIST);
  const followed = following?.countries.includes(iso) ?? false;
  const mutation = useMutation({
    mutationFn: async () => {
      if (!following) {
        return createWatchlist({ name: FOLLOWING_LIST, countries: [iso], rules: DEFAULT_RULES });
      }
      const countries = followed
        ? following.countries.filter((c) => c !== iso)
        : [...following.countries, iso];
      if (countries.length === 0) {
        // A list needs one country: unfollowing the last one keeps the list until another follow.
        throw new Error('The Following list needs at least one country; open it to delete it');
      }
      return saveWatchlist(following, { ...inputOf(following), countries });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: watchlistQueries.all() }),
  });
  const label = followed ? `Unfollow ${name}` : `Follow ${name}`;
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
        {compact ? null : <span>{followed ? ' Following' : ' Follow'}</span>}
      </button>
      {mutation.isError ? (
        <span role="alert" className="follow-error">
          {mutation.error.message}
        </span>
      ) : null}
    </span>
  );
}
