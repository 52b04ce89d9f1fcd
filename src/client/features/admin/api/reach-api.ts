import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod/mini';
import {
  embedListSchema,
  embedMadeSchema,
  feedTokenListSchema,
  feedTokenMadeSchema,
} from '../../../../shared/reach-api';
import { fetchBff } from '../../../lib/api-client';
import { writeBff } from '../../../lib/api-write';
import { t } from '../../../lib/i18n';

/** Feed tokens and embeds (issue 34): what the admin's reach page lists, makes and revokes. */
export const reachQueries = {
  all: () => ['admin', 'reach'] as const,
  feedTokens: () =>
    queryOptions({
      queryKey: [...reachQueries.all(), 'feed-tokens'] as const,
      queryFn: ({ signal }) => fetchBff('/api/feed-tokens', feedTokenListSchema, signal),
      meta: { label: t('queries.feedTokens') },
    }),
  embeds: () =>
    queryOptions({
      queryKey: [...reachQueries.all(), 'embeds'] as const,
      queryFn: ({ signal }) => fetchBff('/api/embeds', embedListSchema, signal),
      meta: { label: t('queries.embeds') },
    }),
};

const revoked = z.object({ ok: z.literal(true) });

/** Makes (POST) or revokes (DELETE) one of `collection`; the lists go stale either way. */
function useReachWrite<In, Out>(request: (input: In) => Promise<Out>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSettled: () => queryClient.invalidateQueries({ queryKey: reachQueries.all() }),
  });
}

export function useMakeFeedToken() {
  return useReachWrite((body: { name: string; feeds: string[]; expires_in_days: number }) =>
    writeBff('POST', '/api/feed-tokens', feedTokenMadeSchema, { body }),
  );
}

export function useMakeEmbed() {
  return useReachWrite(
    (body: {
      name: string;
      view: string;
      subject?: string;
      origin: string;
      expires_in_days: number;
    }) => writeBff('POST', '/api/embeds', embedMadeSchema, { body }),
  );
}

export function useRevoke(collection: 'feed-tokens' | 'embeds') {
  return useReachWrite((id: string) =>
    writeBff('DELETE', `/api/${collection}/${encodeURIComponent(id)}`, revoked),
  );
}
