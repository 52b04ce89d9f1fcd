import { spreadsheetTime } from '../../../shared/spreadsheet-cell.js';
import type { ArchivedEvent, EventsResponse } from '../../../shared/history-api.js';
import { TimeSlice } from '../../work/time-slice.js';
import { displayName } from '../reference/display-names.js';
import { referenceName } from '../reference/reference-countries.js';
import { outputsIn, type Outputs } from '../../../shared/i18n/outputs/translate.js';
import { csv, safeText, sheetHeader } from './spreadsheet-csv.js';

/** Rows in one event CSV at most (the newest that match): narrow the search for older ones. */
export const EVENTS_CSV_MAX_ROWS = 5_000;
/** Events read per store question while a CSV is built (the JSON route's largest page). */
export const EVENTS_CSV_PAGE = 100;

/** The columns, as keys of the `outputs` catalogue's `sheet` (the header row's language). */
const EVENT_COLUMNS = [
  'time',
  'headline',
  'countries',
  'isoCodes',
  'source',
  'link',
  'eventRole',
  'breaking',
  'firstRecorded',
] as const;

/** One page of the search, newest first, from a cursor (null: the newest). */
export type EventPage = (cursor: string | null) => Promise<EventsResponse>;

/**
 * The search's events, page after page (each page one guarded store question, the loop yielding
 * between slices), up to EVENTS_CSV_MAX_ROWS. An event listed once in the search is one row.
 */
export async function collectEvents(page: EventPage): Promise<ArchivedEvent[]> {
  const found: ArchivedEvent[] = [];
  const slice = new TimeSlice();
  let cursor: string | null = null;
  do {
    const answer = await page(cursor);
    found.push(...answer.events);
    cursor = answer.next_cursor;
    await slice.pause();
  } while (cursor !== null && found.length < EVENTS_CSV_MAX_ROWS);
  return found.slice(0, EVENTS_CSV_MAX_ROWS);
}

/** The events as a spreadsheet, through the cell rules every CSV of the project shares. */
export function eventsCsv(
  events: readonly ArchivedEvent[],
  /** The header row's language (issue 34); the cells stay machine-readable. */
  o: Outputs = outputsIn('en'),
): Buffer {
  return csv(
    sheetHeader(EVENT_COLUMNS, o),
    events.map((event) => {
      const isos = event.countries ?? [event.iso];
      return [
        spreadsheetTime(event.ts),
        safeText(event.headline),
        safeText(isos.map((iso) => displayName(iso, referenceName(iso))).join('; ')),
        safeText(isos.join('; ')),
        safeText(event.source ?? ''),
        safeText(event.url ?? ''),
        safeText(event.role ?? ''),
        event.breaking === true ? 'Yes' : event.breaking === false ? 'No' : '',
        spreadsheetTime(event.first_seen),
      ];
    }),
  );
}

/** `events-2026-11-29-0212.csv` (the time it was made, UTC). */
export function eventsFileName(now: number): string {
  return `events-${new Date(now).toISOString().slice(0, 16).replace('T', '-').replace(':', '')}.csv`;
}
