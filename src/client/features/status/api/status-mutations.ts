import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { writeBff } from '../../../lib/api-write';
import { statusQueries } from './status-queries';

const checkedSchema = z.looseObject({ ok: z.literal(true), as_of: z.nullable(z.string()) });

/**
 * "Check now": asks the BFF to look for a new batch. The variable is the batch on screen when
 * pressed, so the answer is compared with it and not with the status the answer refreshes. The
 * status poll is how every open panel learns of a new batch: it is asked again at once.
 */
export function useCheckNow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (_shown: string | null) => writeBff('POST', '/api/status/check', checkedSchema),
    onSettled: () => queryClient.invalidateQueries({ queryKey: statusQueries.all() }),
  });
}
