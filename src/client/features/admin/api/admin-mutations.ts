import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { writeBff } from '../../../lib/api-write';
import { adminQueries } from './admin-queries';

/** Ends a session (signs that person out); the sessions and the log it adds to go stale. */
export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (handle: string) =>
      writeBff(
        'DELETE',
        `/api/sessions/${encodeURIComponent(handle)}`,
        z.object({ ok: z.literal(true) }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminQueries.all() }),
  });
}
