import { KNOWN_TIERS } from '../shared/tiers.js';
import { TIER_LIMITS } from './auth.js';
import { CSV_COLUMNS } from './export-format.js';
import {
  commonErrors,
  errorResponse,
  int,
  json,
  rateHeaders,
  ref,
  schemas,
  str,
} from './openapi-schemas.js';
import { HOTSPOT_EVENTS_MAX, HOTSPOT_LIMIT_DEFAULT, HOTSPOT_LIMIT_MAX } from './routes.js';

/** The machine-readable description served at /api/openapi.json (OpenAPI 3.1). */

function listParameter(name: string, description: string, items: readonly string[]) {
  return {
    name,
    in: 'query',
    required: false,
    description: `${description} Comma-separated; allowed items: ${items.join(', ')}. Unknown or empty items: 400.`,
    schema: { ...str, pattern: `^(${items.join('|')})(,(${items.join('|')}))*$` },
    style: 'form',
    explode: false,
  };
}

export function openApiDocument(): Record<string, unknown> {
  const limits = Object.entries(TIER_LIMITS)
    .map(([tier, limit]) => `${tier} ${limit === 0 ? 'no access (403)' : limit}`)
    .join(', ');
  return {
    openapi: '3.1.0',
    info: {
      title: 'Global Risk Index API (demo upstream)',
      version: '1.0.0',
      description:
        'Read-only country risk scores. Batches run at 03:00 and 10:00 UTC; `as_of` names the ' +
        `batch. Requests per key per sliding 60 minutes: ${limits}. This description itself ` +
        'needs no key.',
    },
    servers: [{ url: '/' }],
    security: [{ bearerKey: [] }],
    paths: {
      '/api/v1/hotspots': { get: hotspotsOperation() },
      '/api/v1/country/{iso}': { get: countryOperation() },
      '/api/v1/export': { get: exportOperation() },
      '/api/openapi.json': {
        get: {
          operationId: 'openApi',
          summary: 'This description',
          security: [],
          responses: {
            '200': { description: 'OpenAPI 3.1 document', content: json({ type: 'object' }) },
          },
        },
      },
    },
    components: {
      securitySchemes: {
        bearerKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'A key `ar_live_` + 64 hex characters, issued by the operator.',
        },
      },
      schemas,
    },
  };
}

function hotspotsOperation() {
  return {
    operationId: 'listHotspots',
    summary: 'Top hotspots of the latest batch, by risk',
    parameters: [
      {
        name: 'limit',
        in: 'query',
        required: false,
        description: `Number of hotspots (default ${HOTSPOT_LIMIT_DEFAULT}, 1 to ${HOTSPOT_LIMIT_MAX}; otherwise 400).`,
        schema: {
          ...int,
          minimum: 1,
          maximum: HOTSPOT_LIMIT_MAX,
          default: HOTSPOT_LIMIT_DEFAULT,
        },
      },
      listParameter('tier', 'Only hotspots of these tiers.', KNOWN_TIERS),
      listParameter(
        'include',
        `Per-row extras: \`categories\` (as in the country object) and \`events\` (up to ${HOTSPOT_EVENTS_MAX}).`,
        ['categories', 'events'],
      ),
    ],
    responses: {
      '200': {
        description: 'Hotspot list',
        headers: rateHeaders,
        content: json(ref('HotspotList')),
      },
      '400': errorResponse('Invalid limit, tier or include'),
      ...commonErrors,
    },
  };
}

function countryOperation() {
  return {
    operationId: 'getCountry',
    summary: 'One country with categories and up to 20 events, newest first',
    parameters: [
      {
        name: 'iso',
        in: 'path',
        required: true,
        description: 'ISO 3166-1 alpha-3 code; lower case is accepted.',
        schema: { ...str, pattern: '^[A-Za-z]{3}$' },
      },
    ],
    responses: {
      '200': {
        description: 'Country detail',
        headers: rateHeaders,
        content: json(ref('CountryDetail')),
      },
      '400': errorResponse('Malformed ISO code'),
      '404': errorResponse('Country not in the current payload (low baseline, no recent news)'),
      ...commonErrors,
    },
  };
}

function exportOperation() {
  return {
    operationId: 'exportLatest',
    summary: 'Bulk export of the latest batch (costs 1 request)',
    parameters: [
      {
        name: 'format',
        in: 'query',
        required: false,
        schema: { enum: ['csv', 'json'], default: 'csv' },
      },
    ],
    responses: {
      '200': {
        description:
          'CSV: 4 `#` comment lines (generated_at, methodology_version, global_ggri, counts), ' +
          `then a header row: ${CSV_COLUMNS.join(',')}. JSON: the whole latest-state payload.`,
        headers: {
          ...rateHeaders,
          'Content-Disposition': {
            description: '`attachment; filename=ggri-export-YYYY-MM-DD.csv` (or `.json`)',
            schema: str,
          },
        },
        content: { 'text/csv': { schema: str }, ...json(ref('Export')) },
      },
      '400': errorResponse('Unknown format'),
      ...commonErrors,
    },
  };
}
