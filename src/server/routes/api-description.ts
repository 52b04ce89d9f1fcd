import { meSchema } from '../../shared/roles.js';
import { apiTokenInputSchema } from '../services/identity/api-tokens.js';
import { z } from 'zod';
import {
  deliveryLogResponseSchema,
  unreadCountResponseSchema,
  watchlistInputSchema,
  watchlistListResponseSchema,
  watchlistResponseSchema,
} from '../../shared/alerts-api.js';
import { backtestRequestSchema, backtestResponseSchema } from '../../shared/backtest-api.js';
import {
  batchListResponseSchema,
  batchResponseSchema,
  chainVerificationSchema,
} from '../../shared/batches-api.js';
import { countriesResponseSchema, statusResponseSchema } from '../../shared/bff-api.js';
import {
  noteInputSchema,
  noteListResponseSchema,
  noteResponseSchema,
  noteSearchResponseSchema,
  noteWrittenSchema,
} from '../../shared/notes-api.js';
import {
  comparableBodySchema,
  comparableResponseSchema,
  methodChangeListSchema,
} from '../../shared/method-api.js';
import {
  changesResponseSchema,
  countryHistoryResponseSchema,
  eventsResponseSchema,
  globalHistoryResponseSchema,
  referenceCountriesResponseSchema,
} from '../../shared/history-api.js';
import {
  countryResponseSchema,
  exportJsonSchema,
  hotspotsResponseSchema,
} from '../../shared/schemas/responses.js';
import {
  exposureResponseSchema,
  importResponseSchema,
  siteAlertDeliveryInputSchema,
  siteAlertDeliveryResponseSchema,
  siteDeletedSchema,
  siteInputSchema,
  sitePointsResponseSchema,
  siteResponseSchema,
  sitesResponseSchema,
} from '../../shared/sites-api.js';
import {
  acknowledgeInputSchema,
  acknowledgeResponseSchema,
  acknowledgementHistorySchema,
  triagedAlertListSchema,
} from '../../shared/alert-triage-api.js';
import {
  personSettingsInputSchema,
  personSettingsResponseSchema,
} from '../../shared/person-settings-api.js';
import { markReadSchema } from './alerts.js';
import { teamIndexOperations } from './team-index-description.js';
import { reachOperations } from './reach-description.js';

/**
 * What the OpenAPI document says of each API route beyond its parameter schemas (which the
 * routes declare and validate with): a summary, a tag, the JSON body where the route's service
 * validates one, and the success answer's shape from `src/shared`. Keyed by `METHOD path` as
 * Fastify registers it; a test fails when a route and this table disagree either way.
 */
export interface ApiOperation {
  summary: string;
  tag:
    | 'Risk data'
    | 'Team index'
    | 'History'
    | 'Watchlists'
    | 'Alerts'
    | 'Sites'
    | 'Service'
    | 'Identity'
    | 'Notes';
  /** Request body (JSON), documented; the service validates it with this same schema. */
  body?: z.core.$ZodType;
  /** Success status and the answer's shape; omitted for non-JSON answers (CSV). */
  success?: { status: number; schema: z.core.$ZodType };
  /** Content type of a non-JSON success answer. */
  produces?: string;
}

const json = (schema: z.core.$ZodType, status = 200) => ({ status, schema });

export const apiOperations: Readonly<Record<string, ApiOperation>> = {
  ...teamIndexOperations,
  ...reachOperations,
  'GET /api/v1/hotspots': {
    summary: 'Ranked country hotspots of the latest batch, as the upstream serves them',
    tag: 'Risk data',
    success: json(hotspotsResponseSchema),
  },
  'GET /api/v1/country/:iso': {
    summary: 'One country: scores, ten categories and up to 20 recent events',
    tag: 'Risk data',
    success: json(countryResponseSchema),
  },
  'GET /api/v1/export': {
    summary: "The upstream's bulk export of the latest batch (format=json or csv)",
    tag: 'Risk data',
    success: json(exportJsonSchema),
  },
  'GET /api/countries': {
    summary: 'Every country of the latest batch with its scores (from the export)',
    tag: 'Risk data',
    success: json(countriesResponseSchema),
  },
  'GET /api/spreadsheet/countries': {
    summary:
      "Spreadsheet-ready CSV of every country (formula cells escaped), in the columns the SPA's table downloads share: the risk change since the previous recorded batch, then the provider's own delta_headline by name; as_of: of a recorded batch; the header row in lang (en, fr, es, ar), else the signed-in person's language setting, else Accept-Language, else English (an unknown lang: English); the cells stay machine-readable",
    tag: 'Risk data',
    produces: 'text/csv',
  },
  'GET /api/spreadsheet/country/:iso': {
    summary:
      "Spreadsheet-ready CSV of one country's categories and events; as_of: of a recorded batch; the header row in lang (en, fr, es, ar), else the person's setting, else Accept-Language, else English",
    tag: 'Risk data',
    produces: 'text/csv',
  },
  'GET /api/reference/countries': {
    summary: 'The ISO 3166 country list with common names (no upstream request)',
    tag: 'Risk data',
    success: json(referenceCountriesResponseSchema),
  },
  'GET /api/history/global': {
    summary: 'The global index over recorded batches',
    tag: 'History',
    success: json(globalHistoryResponseSchema),
  },
  'GET /api/history/country/:iso': {
    summary: "One country's scores and categories over recorded batches",
    tag: 'History',
    success: json(countryHistoryResponseSchema),
  },
  'GET /api/changes': {
    summary:
      'What changed between two recorded batches; with index=team the moves of the team index ' +
      '(same weights for both batches, the provider figures under provider), and while the ' +
      'two batches still wait for their compact scores no figures: index.computing says so',
    tag: 'History',
    success: json(changesResponseSchema),
  },
  'GET /api/country/:iso/explain': {
    summary:
      "Why a country's score moved between two batches (from/to; default the last two): categories, weights, events, a sentence; " +
      "with index=team the move of the team index (our weights for both batches, our override's tier at the newer one, the categories ranked and weighted by our weights, index says so), the provider's move under provider: {delta_risk, categories, sentence}",
    tag: 'History',
  },
  'GET /api/events': {
    summary:
      'The archive of every event received, filtered and paged; the countries as iso=A,B,C (at most 50 codes), region= (a UN region or subregion) or watchlist=<id> (one of the three); an event received for several of them listed once, with countries',
    tag: 'History',
    success: json(eventsResponseSchema),
  },
  'GET /api/spreadsheet/events.csv': {
    summary:
      "The event search (the same filters as /api/events) as a spreadsheet: the newest 5,000 events at most, one row per event; columns Time (UTC), Headline, Countries, ISO codes, Source, Link, Role, Breaking, First recorded (UTC); the header row in lang (en, fr, es, ar), else the person's setting, else Accept-Language, else English; the cells stay machine-readable",
    tag: 'History',
  },
  'GET /api/batches': {
    summary:
      'Recorded batches, newest first: each id a digest chained to the one before, with its methodology_version and whether it changed the method',
    tag: 'History',
    success: json(batchListResponseSchema),
  },
  'GET /api/method-changes': {
    summary:
      "The provider's method changes held (a batch whose methodology_version differs from the batch before), oldest first, at most 1,000",
    tag: 'History',
    success: json(methodChangeListSchema),
  },
  'PUT /api/method-changes/:id': {
    summary:
      'Admin: mark a method change comparable after all, body {"comparable": true}; the alert rules it held are evaluated then, once; audit-logged',
    tag: 'History',
    body: comparableBodySchema,
    success: json(comparableResponseSchema),
  },
  'GET /api/notes': {
    summary:
      'Search the country notes: live notes whose text holds q (case-insensitive), newest first, at most 50',
    tag: 'Notes',
    success: json(noteSearchResponseSchema),
  },
  'GET /api/notes/:iso': {
    summary:
      "A country's notes, the most recently written first (at most 100); ?as_of= shows them as they were then, from their revisions",
    tag: 'Notes',
    success: json(noteListResponseSchema),
  },
  'POST /api/notes/:iso': {
    summary:
      'Editor: write a note on a country, body {"text": …} (plain text, at most 2,000 characters; 100 notes a country, 10,000 in all); audit-logged',
    tag: 'Notes',
    body: noteInputSchema,
    success: json(noteWrittenSchema, 201),
  },
  'GET /api/notes/:iso/:id': {
    summary: 'One note with its every revision (its ETag in the header)',
    tag: 'Notes',
    success: json(noteResponseSchema),
  },
  'PUT /api/notes/:iso/:id': {
    summary:
      "Editor: replace a note's text; needs If-Match with its ETag (at most 50 revisions); audit-logged",
    tag: 'Notes',
    body: noteInputSchema,
    success: json(noteWrittenSchema),
  },
  'DELETE /api/notes/:iso/:id': {
    summary:
      'Editor: delete a note (its revisions are kept for as-of views); needs If-Match; audit-logged',
    tag: 'Notes',
  },
  'GET /api/batches/verify': {
    summary: 'Recompute the chain of batch ids: does it hold, and if not from which batch',
    tag: 'History',
    success: json(chainVerificationSchema),
  },
  'GET /api/batches/:id': {
    summary: 'One batch as its id covers it: global numbers and every country row',
    tag: 'History',
    success: json(batchResponseSchema),
  },
  'GET /api/watchlists': {
    summary: 'The watchlists this caller can see',
    tag: 'Watchlists',
    success: json(watchlistListResponseSchema),
  },
  'POST /api/watchlists': {
    summary:
      'Create a watchlist (its webhook secret is in this answer only); language (en, fr, es, ar; default en) is what its e-mails and webhook texts are written in, another code a 400 naming language',
    tag: 'Watchlists',
    body: watchlistInputSchema,
    success: json(watchlistResponseSchema, 201),
  },
  'POST /api/watchlists/backtest': {
    summary:
      'Try rules on the stored history: how often each would have fired per country, the last 90 days, a suggested threshold; across a method change not marked comparable the rules comparing two batches are held as live alerts hold them (method_changes says where and how many)',
    tag: 'Watchlists',
    body: backtestRequestSchema,
    success: json(backtestResponseSchema),
  },
  'GET /api/watchlists/:id': {
    summary: 'One watchlist (ETag for If-Match)',
    tag: 'Watchlists',
    success: json(watchlistResponseSchema),
  },
  'PUT /api/watchlists/:id': {
    summary:
      'Replace a watchlist; needs If-Match with its ETag; a language left out stays as saved',
    tag: 'Watchlists',
    body: watchlistInputSchema,
    success: json(watchlistResponseSchema),
  },
  'DELETE /api/watchlists/:id': {
    summary: 'Delete a watchlist; needs If-Match with its ETag',
    tag: 'Watchlists',
  },
  'POST /api/watchlists/:id/test': {
    summary: "Queue a test message to the watchlist's webhook",
    tag: 'Watchlists',
  },
  'GET /api/watchlists/:id/deliveries': {
    summary: "The watchlist's delivery log (webhook and e-mail attempts)",
    tag: 'Watchlists',
    success: json(deliveryLogResponseSchema),
  },
  'POST /api/sites/import': {
    summary:
      'Import sites from CSV (text/csv: UTF-8, comma or semicolon, header row) or a JSON array; ' +
      'matched by ref, at most 20,000 sites and 10 MB; dry_run=1 previews',
    tag: 'Sites',
    body: z.array(siteInputSchema),
    success: json(importResponseSchema),
  },
  'POST /api/sites': {
    summary:
      'Create one site (checked and placed as an import row; a ref another site has is a 409); ' +
      'answers with its ETag',
    tag: 'Sites',
    body: siteInputSchema,
    success: json(siteResponseSchema, 201),
  },
  'GET /api/sites': {
    summary:
      "Our sites with their country's numbers in the newest batch (tier, country, kind, tag), " +
      'a page at a time: limit (default 500, at most 2,000) and cursor (the next_cursor before)',
    tag: 'Sites',
    success: json(sitesResponseSchema),
  },
  'GET /api/sites/points': {
    summary:
      'Every site as the map draws it (id, lat, lng, kind, tier, name, iso, people as columns); ' +
      'ETag, and 304 for a matching If-None-Match',
    tag: 'Sites',
    success: json(sitePointsResponseSchema),
  },
  'GET /api/sites/alert-delivery': {
    summary:
      'Where site alerts go: the team list "Our sites" (the inbox) and its webhook and e-mail; 404 while there are no sites (the list comes with the first)',
    tag: 'Sites',
    success: json(siteAlertDeliveryResponseSchema),
  },
  'PUT /api/sites/alert-delivery': {
    summary: 'Set the webhook and e-mail of site alerts; needs If-Match with its ETag',
    tag: 'Sites',
    body: siteAlertDeliveryInputSchema,
    success: json(siteAlertDeliveryResponseSchema),
  },
  'GET /api/sites/:id': {
    summary: 'One site (ETag for If-Match)',
    tag: 'Sites',
    success: json(siteResponseSchema),
  },
  'PUT /api/sites/:id': {
    summary: 'Replace a site; needs If-Match with its ETag',
    tag: 'Sites',
    body: siteInputSchema,
    success: json(siteResponseSchema),
  },
  'DELETE /api/sites/:id': {
    summary: 'Delete a site; needs If-Match with its ETag',
    tag: 'Sites',
    success: json(siteDeletedSchema),
  },
  'GET /api/spreadsheet/sites.csv': {
    summary:
      "Our sites with their country's current numbers, as a spreadsheet-ready CSV (the same filters as /api/sites); the header row in lang (en, fr, es, ar), else the person's setting, else Accept-Language, else English",
    tag: 'Sites',
    produces: 'text/csv',
  },
  'GET /api/exposure': {
    summary:
      'Sites and people by tier, countries of ours that moved, the 20 most exposed sites (ranked ' +
      'by exposure = people × weighted risk / 100, where weighted risk is the highest risk / ' +
      '(1 + km / 100) over the countries within the site rule radius, its own at 0 km; a site ' +
      'with no people counts as 1; a country we override counts by our tier, and its sites say ' +
      'so: tier ours, provider_tier, override; by_tier and moved count it by our tier too, ' +
      'with overridden and provider_tier_before/now), and the exposure index (weight=people or value) ' +
      'over the whole recorded history. With index=team (weights=today|then as elsewhere) by_tier ' +
      "counts by our tier (the team index's band with our weights, or our override's tier), the " +
      "provider's own count under provider.by_tier and the weights under team_index; moved, " +
      "riskiest and index stay on the provider's risk with our overrides; an unknown index is a 400",
    tag: 'Sites',
    success: json(exposureResponseSchema),
  },
  'GET /api/alerts': {
    summary:
      'The alert inbox, newest first, paged by cursor; filtered by state (unread, ' +
      'unacknowledged, acknowledged), watchlist, iso and disposition',
    tag: 'Alerts',
    success: json(triagedAlertListSchema),
  },
  'POST /api/alerts/:id/acknowledgement': {
    summary:
      'Acknowledge an alert for the team with a disposition and a note, or change the ' +
      'acknowledgement ("replaces": the revision shown)',
    tag: 'Alerts',
    body: acknowledgeInputSchema,
    success: json(acknowledgeResponseSchema),
  },
  'GET /api/me/settings': {
    summary:
      'The signed-in person’s settings (e-mail, daily digest, quiet hours, interface language)',
    tag: 'Identity',
    success: json(personSettingsResponseSchema),
  },
  'PUT /api/me/settings': {
    summary:
      'Replace the signed-in person’s settings (If-Match: the ETag read, optional); `language` ' +
      'is one of en, fr, es, ar or null (the browser’s), left out: kept as saved; another: 400',
    tag: 'Identity',
    body: personSettingsInputSchema,
    success: json(personSettingsResponseSchema),
  },
  'GET /api/alerts/:id/acknowledgements': {
    summary: 'Every acknowledgement of an alert, newest first (the current one and its history)',
    tag: 'Alerts',
    success: json(acknowledgementHistorySchema),
  },
  'GET /api/alerts/unread-count': {
    summary: 'How many alerts this caller has not read',
    tag: 'Alerts',
    success: json(unreadCountResponseSchema),
  },
  'POST /api/alerts/read': {
    summary: 'Mark alerts read: {"ids": [...]} or {"all": true}',
    tag: 'Alerts',
    body: markReadSchema,
  },
  'GET /api/status': {
    summary: 'Freshness, upstream health, budget and history coverage (no upstream request)',
    tag: 'Service',
    success: json(statusResponseSchema),
  },
  'POST /api/status/check': {
    summary:
      'Check now for a new batch: answers when the check has, with the newest as_of; 429 with Retry-After if it was checked in the last 5 minutes',
    tag: 'Service',
  },
  'GET /api/me': {
    summary: 'Who is asking: name, e-mail, role (viewer, editor, admin) and how they signed in',
    tag: 'Identity',
    success: json(meSchema),
  },
  'GET /api/tokens': {
    summary: 'API tokens (admin): name, role, expiry, last use; never the secret',
    tag: 'Identity',
  },
  'POST /api/tokens': {
    summary:
      'Make an API token (admin): {"name", "role", "expires_in_days"}; its secret is in this answer only',
    tag: 'Identity',
    body: apiTokenInputSchema,
  },
  'DELETE /api/tokens/:id': {
    summary: 'Revoke an API token (admin)',
    tag: 'Identity',
  },
  'GET /api/sessions': {
    summary: 'Signed-in sessions (admin)',
    tag: 'Identity',
  },
  'DELETE /api/sessions/:id': {
    summary: 'End a session (admin): signs that person out',
    tag: 'Identity',
  },
  'GET /api/audit': {
    summary:
      'The audit log (admin): every change and sign-in, newest first (dry-run imports and backtests are trials, not logged); filters who, action, object (exact, or a prefix ending in *), since, until (a day alone: to its end); paged by cursor',
    tag: 'Identity',
  },
  'GET /api/spreadsheet/audit.csv': {
    summary:
      'The audit log as a spreadsheet (admin): the same filters, at most 10,000 rows, each with a plain-words "What happened" (English); the header row in lang (en, fr, es, ar), else the person\'s setting, else Accept-Language, else English',
    tag: 'Identity',
  },
  'GET /api/openapi.json': {
    summary: 'This document',
    tag: 'Service',
  },
};
