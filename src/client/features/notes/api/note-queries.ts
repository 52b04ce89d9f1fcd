import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { noteWrittenSchema, type CountryNote } from '../../../../shared/notes-api';
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

/** The ETag of a note as listed: its version, quoted (the API's `If-Match`). */
export const noteTag = (note: CountryNote): string => `"${note.version}"`;

/**
 * Replaces a note's text, naming the version shown (`If-Match`): someone else's edit first is
 * a 412 in words, never overwritten. The country's notes and every note search go stale.
 */
export function useEditNote(iso: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ note, text }: { note: CountryNote; text: string }) =>
      writeBff(
        'PUT',
        `/api/notes/${encodeURIComponent(iso)}/${encodeURIComponent(note.id)}`,
        noteWrittenSchema,
        { body: { text }, ifMatch: noteTag(note) },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: noteQueries.all() }),
  });
}

/** Deletes a note as shown (`If-Match`); its revisions stay, so past views still show it. */
export function useDeleteNote(iso: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (note: CountryNote) =>
      writeBff(
        'DELETE',
        `/api/notes/${encodeURIComponent(iso)}/${encodeURIComponent(note.id)}`,
        deletedSchema,
        { ifMatch: noteTag(note) },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: noteQueries.all() }),
  });
}

const deletedSchema = z.looseObject({ ok: z.literal(true) });
