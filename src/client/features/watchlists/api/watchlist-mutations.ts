import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DEFAULT_RULES, type Watchlist, type WatchlistInput } from '../../../../shared/alerts-api';
import {
  createWatchlist,
  deleteWatchlist,
  FOLLOWING_LIST,
  inputOf,
  saveWatchlist,
  sendTestWebhook,
  watchlistQueries,
} from './watchlist-queries';
import { t } from '../../../lib/i18n';

/*
 * Every change to watchlists goes through one of these hooks, and each owns what it makes
 * stale: a component asks for the change and reacts to its outcome, never to the cache. A list's
 * countries, rules and name appear in the index, its page and the Follow buttons, so a write
 * refreshes every watchlist query, whether it succeeded or not (a 412 means the cache is old).
 */

function useRefreshWatchlists() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: watchlistQueries.all() });
}

/** A new list (the answer holds its webhook secret, shown once). */
export function useCreateWatchlist() {
  const refresh = useRefreshWatchlists();
  return useMutation({ mutationFn: createWatchlist, onSettled: refresh });
}

/** Replaces `list` with If-Match: an edit made elsewhere first is a 412, never overwritten. */
export function useSaveWatchlist(list: Watchlist) {
  const refresh = useRefreshWatchlists();
  return useMutation({
    mutationFn: (input: WatchlistInput) => saveWatchlist(list, input),
    onSettled: refresh,
  });
}

export function useDeleteWatchlist(list: Watchlist) {
  const refresh = useRefreshWatchlists();
  return useMutation({ mutationFn: () => deleteWatchlist(list), onSettled: refresh });
}

/** A test message through the outbox: it shows in the list's delivery log. */
export function useSendTestWebhook(list: Watchlist) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => sendTestWebhook(list),
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: watchlistQueries.deliveries(list.id).queryKey }),
  });
}

/**
 * Follow or unfollow `iso` in the Following list (made on the first follow). A list needs one
 * country: unfollowing the last one keeps the list until another follow.
 */
export function useToggleFollow(iso: string, following: Watchlist | undefined, personal = false) {
  const refresh = useRefreshWatchlists();
  return useMutation({
    mutationFn: async () => {
      if (!following) {
        return createWatchlist({
          name: FOLLOWING_LIST,
          countries: [iso],
          rules: DEFAULT_RULES,
          ...(personal ? { scope: 'user' as const } : {}),
        });
      }
      const followed = following.countries.includes(iso);
      const countries = followed
        ? following.countries.filter((c) => c !== iso)
        : [...following.countries, iso];
      if (countries.length === 0) {
        throw new Error(t('watchlists.followingNeedsCountry', { name: FOLLOWING_LIST }));
      }
      return saveWatchlist(following, { ...inputOf(following), countries });
    },
    onSettled: refresh,
  });
}
