import { CATEGORY_NAMES } from '../shared/categories.js';
import { KNOWN_TIERS } from '../shared/tiers.js';
import { TIER_LIMITS } from './auth.js';
import { CSV_COLUMNS } from './export-format.js';
import { HOTSPOT_EVENTS_MAX, HOTSPOT_LIMIT_DEFAULT, HOTSPOT_LIMIT_MAX } from './routes.js';

/** The machine-readable description served at /api/openapi.json (OpenAPI 3.1). */

const ref = (name: string): { $ref: string } => ({ $ref: `#/components/schemas/${name}` });
const num = { type: 'number' };
const int = { type: 'integer' };
const str = { type: 'string' };
const obj = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});
const json = (schema: unknown) => ({ 'application/json': { schema } });

const rateHeaders = {
  'X-RateLimit-Limit': { description: 'Requests per hour allowed for this key', schema: int },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the sliding 60-minute window',
    schema: int,
  },
  'Cache-Control': { description: '`public, max-age=30`', schema: str },
};

function errorResponse(description: string) {
  return { description, content: json(ref('Error')) };
}

const commonErrors = {
  '401': errorResponse(
    'Missing or invalid bearer key; body is exactly {"ok": false, "error": "Invalid API key"}',
  ),
  '403': errorResponse(
    'Subscription inactive, tier without API access (Free, Trial), or key never issued',
  ),
  '429': {
    description: 'Rate limit exceeded',
    headers: {
      'Retry-After': {
        description: 'Seconds until the oldest request leaves the window',
        schema: int,
      },
      ...rateHeaders,
    },
    content: json(ref('RateLimited')),
  },
  '500': errorResponse('Backend problem; retry with exponential backoff'),
  '502': errorResponse('Backend problem; retry with exponential backoff'),
  '503': errorResponse('Backend or batch-run problem; retry with exponential backoff'),
};

const hotspotProperties = {
  iso: { ...str, pattern: '^[A-Z]{3}$' },
  name: str,
  lat: num,
  lng: num,
  risk: { ...num, minimum: 0, maximum: 95 },
  tier: { ...str, examples: [...KNOWN_TIERS] },
  static: num,
  active: num,
  delta_active: num,
  delta_headline: num,
  confidence: { ...int, minimum: 0, maximum: 100 },
  profile: str,
  threat_vectors: { type: 'array', items: str },
  source_count: int,
};

const schemas = {
  Error: obj({ ok: { const: false }, error: str }),
  RateLimited: obj({ ok: { const: false }, error: str, cap: int, retry_after_seconds: int }),
  Category: obj({ score: num, static: num, active: num, weight: num }),
  Categories: obj(Object.fromEntries(CATEGORY_NAMES.map((name) => [name, ref('Category')]))),
  Event: obj({
    ts: { ...str, format: 'date-time' },
    headline: str,
    url: { ...str, format: 'uri' },
    source: str,
    source_name: str,
    source_category: str,
    source_tier: str,
    role: { enum: ['locus', 'actor'] },
    breaking: { type: 'boolean' },
    state_affiliated: { type: 'boolean' },
  }),
  Global: obj({
    ggri: num,
    tier: str,
    delta_vs_yesterday: num,
    static: num,
    active: num,
    events_24h: int,
  }),
  Hotspot: obj(
    {
      ...hotspotProperties,
      categories: ref('Categories'),
      events: { type: 'array', maxItems: HOTSPOT_EVENTS_MAX, items: ref('Event') },
    },
    Object.keys(hotspotProperties),
  ),
  Country: obj({
    ...hotspotProperties,
    categories: ref('Categories'),
    events: { type: 'array', maxItems: 20, items: ref('Event') },
  }),
  HotspotList: obj({
    ok: { const: true },
    as_of: { ...str, format: 'date-time' },
    methodology_version: str,
    global: ref('Global'),
    count: int,
    hotspots: { type: 'array', maxItems: HOTSPOT_LIMIT_MAX, items: ref('Hotspot') },
  }),
  CountryDetail: obj({
    ok: { const: true },
    as_of: { ...str, format: 'date-time' },
    country: ref('Country'),
  }),
  Export: obj({
    ok: { const: true },
    as_of: { ...str, format: 'date-time' },
    methodology_version: str,
    global: ref('Global'),
    countries: { type: 'array', items: ref('Country') },
    feed_history: { type: 'array', items: { type: 'object' } },
    sources: { type: 'array', items: { type: 'object' } },
  }),
};

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
      '/api/v1/hotspots': {
        get: {
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
        },
      },
      '/api/v1/country/{iso}': {
        get: {
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
            '404': errorResponse(
              'Country not in the current payload (low baseline, no recent news)',
            ),
            ...commonErrors,
          },
        },
      },
      '/api/v1/export': {
        get: {
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
        },
      },
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
