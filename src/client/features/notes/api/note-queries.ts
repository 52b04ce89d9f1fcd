import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { noteListResponseSchema, noteWrittenSchema } from '../../../../shared/notes-api';
import { fetchBff } from '../../../lib/api-client';
import { writeBff } from '../../../lib/api-write';

/** `/api/notes/:iso[?as_of=]`: a country's notes, as they were at `asOf` when given (issue 31). */
export const noteQueries = {
  all: () => ['notes'] as const,
  country: (iso: string, asOf: string | null) =>
    queryOptions({
      queryKey: [...noteQueries.all(), iso, asOf] as const,
      queryFn: ({ signal }) =>
        fetchBff(
          `/api/notes/${encodeURIComponent(iso)}${asOf ? `?as_of=${encodeURIComponent(asOf)}` : ''}`,
          noteListResponseSchema,
          signal,
        ),
      meta: { label: 'the notes' },
    }),
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
