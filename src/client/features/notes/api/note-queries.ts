import { useMutation, useQueryClient } from '@tanstack/react-query';
import { noteWrittenSchema } from '../../../../shared/notes-api';
import { writeBff } from '../../../lib/api-write';
import { bffQueries } from '../../../lib/bff-queries';

/** `/api/notes/:iso[?as_of=]`: a country's notes, as they were at `asOf` when given (issue 31). */
export const noteQueries = {
  all: () => ['notes'] as const,
  country: bffQueries.notes,
};

/** Writes a note; every notes query of the country goes stale (the list, its as-of views). */
export function useWriteNote(iso: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (text: string) =>
      writeBff('POST', `/api/notes/${encodeURIComponent(iso)}`, noteWrittenSchema, {
        body: { text },
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [...noteQueries.all(), iso] }),
  });
}
