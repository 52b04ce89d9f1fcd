import { CATEGORY_NAMES } from '../shared/categories.js';
import { KNOWN_TIERS } from '../shared/tiers.js';
import { MAX_COUNTRY_EVENTS } from './generator.js';
import { HOTSPOT_EVENTS_MAX, HOTSPOT_LIMIT_MAX } from './routes.js';

/** Building blocks of the OpenAPI description: component schemas, shared headers and errors. */

export const ref = (name: string): { $ref: string } => ({ $ref: `#/components/schemas/${name}` });
export const num = { type: 'number' };
export const int = { type: 'integer' };
export const str = { type: 'string' };
export const obj = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});
export const json = (schema: unknown) => ({ 'application/json': { schema } });

export const rateHeaders = {
  'X-RateLimit-Limit': { description: 'Requests per hour allowed for this key', schema: int },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the sliding 60-minute window',
    schema: int,
  },
  'Cache-Control': { description: '`public, max-age=30`', schema: str },
};

export function errorResponse(description: string) {
  return { description, content: json(ref('Error')) };
}

export const commonErrors = {
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

export const schemas = {
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
    events: { type: 'array', maxItems: MAX_COUNTRY_EVENTS, items: ref('Event') },
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
