import type { CountryResponse, HotspotsResponse } from '../../../shared/schemas/responses.js';

/*
 * What each upstream resource's cache entry holds: its data, or the upstream's own refusal.
 * A file of its own so that the export index and the request specs both use these types
 * without importing each other.
 */

/** The upstream's own 400/404 verdict, cached like data so asking again costs nothing. */
export interface Rejection {
  status: 400 | 404;
  error: string;
}

export type HotspotsValue = { status: 200; data: HotspotsResponse } | Rejection;
export type CountryValue = { status: 200; data: CountryResponse } | Rejection;
export type ExportFormat = 'csv' | 'json';
export type ExportValue =
  /**
   * The export's text and the content type we send it with (ours, by format: the upstream's
   * headers are untrusted text and are never passed on).
   */
  { status: 200; text: string; contentType: string } | Rejection;
