import { queryOptions } from '@tanstack/react-query';
import { NOTE_SEARCH_MAX, noteSearchResponseSchema } from '../../../../shared/notes-api';
import { fetchBff } from '../../../lib/api-client';
import { t } from '../../../lib/i18n';

/** Shorter text matches too much to be a search of what someone wrote. */
export const NOTE_SEARCH_MIN = 2;
/** The API's own bound on `q`. */
const NOTE_SEARCH_TEXT_MAX = 100;

/** The text to search notes for, or null when it is too short or long to ask. */
export function noteSearchText(text: string): string | null {
  const q = text.trim();
  return q.length >= NOTE_SEARCH_MIN && q.length <= NOTE_SEARCH_TEXT_MAX ? q : null;
}

/**
 * `/api/notes?q=`: live notes whose text holds `q` (issue 31), newest first, at most
 * NOTE_SEARCH_MAX; under `['notes']`, so a note written or edited makes it stale.
 */
export const noteSearchQueries = {
  search: (q: string) =>
    queryOptions({
      queryKey: ['notes', 'search', q] as const,
      queryFn: ({ signal }) =>
        fetchBff(`/api/notes?q=${encodeURIComponent(q)}`, noteSearchResponseSchema, signal),
      select: ({ data }) => data.notes.slice(0, NOTE_SEARCH_MAX),
      meta: { label: t('queries.noteSearch') },
    }),
};
