import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { HOTSPOT_MAX_LIMIT } from '../../../shared/hotspot-limits.js';
import {
  hotspotsResponseSchema,
  countryResponseSchema,
} from '../../../shared/schemas/responses.js';
import { exportJsonSchema } from '../../../shared/schemas/responses.js';
import type { ExportIndexes } from './export-index.js';
import type {
  CountryValue,
  ExportFormat,
  ExportValue,
  HotspotsValue,
  Rejection,
} from './resource-values.js';
import type { ResourceSpec } from '../../cache/resource-cache.js';
import type { UpstreamAnswer, UpstreamClient } from '../../upstream/client.js';
import { headerValue } from '../../upstream/classify.js';

/** The API's maximum page: the BFF always asks for it and serves smaller limits by slicing. */
export const UPSTREAM_MAX_LIMIT = HOTSPOT_MAX_LIMIT;

export type * from './resource-values.js';

function rejection(answer: UpstreamAnswer, what: string): Rejection {
  const status = answer.status === 404 ? 404 : 400;
  return {
    status,
    error: answer.errorText ?? `The Risk API answered ${status} for ${what}`,
  };
}

const rejectionSchema = z.object({ status: z.literal([400, 404]), error: z.string() });
const valueSchemas: Array<[prefix: string, schema: z.core.$ZodType]> = [
  [
    'hotspots|',
    z.union([z.object({ status: z.literal(200), data: hotspotsResponseSchema }), rejectionSchema]),
  ],
  [
    'country|',
    z.union([z.object({ status: z.literal(200), data: countryResponseSchema }), rejectionSchema]),
  ],
  [
    'export|',
    z.union([
      z.object({ status: z.literal(200), text: z.string(), contentType: z.string() }),
      rejectionSchema,
    ]),
  ],
];

/**
 * Whether a value read back from the cache file is one this key's resource could have stored:
 * checked with the same schemas as upstream answers, so a damaged entry is dropped on load
 * instead of failing every request for it until refetched.
 */
export function isServableValue(key: string, value: unknown): boolean {
  const schema = valueSchemas.find(([prefix]) => key.startsWith(prefix))?.[1];
  return schema !== undefined && z.safeParse(schema, value).success;
}

/** Every upstream request the BFF can make, as cacheable resources with normalised keys. */
export class ResourceSpecs {
  /** Specs are built once per key: a cache hit should allocate next to nothing. */
  readonly #memo = new LRUCache<string, ResourceSpec<never>>({ max: 1000 });

  constructor(
    private readonly client: UpstreamClient,
    /** Given the JSON export as parsed here, so the index is built without parsing it again. */
    private readonly exportIndexes: ExportIndexes,
  ) {}

  #once<V>(key: string, build: () => ResourceSpec<V>): ResourceSpec<V> {
    let spec = this.#memo.get(key) as ResourceSpec<V> | undefined;
    if (!spec) {
      spec = build();
      this.#memo.set(key, spec as unknown as ResourceSpec<never>);
    }
    return spec;
  }

  /** `tiers` and `include` sorted and de-duplicated by the caller; limit is always the maximum. */
  hotspots(tiers: readonly string[], include: readonly string[]): ResourceSpec<HotspotsValue> {
    const key = `hotspots|tier=${tiers.join(',')}|include=${include.join(',')}`;
    return this.#once(key, () => this.#hotspots(key, tiers, include));
  }

  country(iso: string): ResourceSpec<CountryValue> {
    const key = `country|${iso}`;
    return this.#once(key, () => this.#country(key, iso));
  }

  export(format: ExportFormat): ResourceSpec<ExportValue> {
    const key = `export|${format}`;
    return this.#once(key, () => this.#export(key, format));
  }

  #hotspots(
    key: string,
    tiers: readonly string[],
    include: readonly string[],
  ): ResourceSpec<HotspotsValue> {
    const path = '/api/v1/hotspots';
    const query: Record<string, string> = { limit: String(UPSTREAM_MAX_LIMIT) };
    if (tiers.length > 0) query.tier = tiers.join(',');
    if (include.length > 0) query.include = include.join(',');
    return {
      key,
      fetch: (purpose) =>
        this.client.get(path, query, { route: 'hotspots', purpose }, (answer) => {
          if (answer.status !== 200) {
            return { value: rejection(answer, path), asOfText: null, size: 256 };
          }
          const data = this.client.json(answer, hotspotsResponseSchema, path);
          return {
            value: { status: 200, data },
            asOfText: data.as_of,
            methodologyVersion: data.methodology_version ?? null,
            size: answer.body.length,
          };
        }),
    };
  }

  #country(key: string, iso: string): ResourceSpec<CountryValue> {
    const path = `/api/v1/country/${iso}`;
    return {
      key,
      fetch: (purpose) =>
        this.client.get(path, {}, { route: 'country', purpose, accept404: true }, (answer) => {
          if (answer.status !== 200) {
            return { value: rejection(answer, path), asOfText: null, size: 256 };
          }
          const data = this.client.json(answer, countryResponseSchema, path);
          return { value: { status: 200, data }, asOfText: data.as_of, size: answer.body.length };
        }),
    };
  }

  /*
   * The export's bytes as the upstream sent them (the download passes them through). JSON must
   * be JSON; its `as_of` is used when present (the payload's shape is not documented). CSV must
   * not be an HTML page; its `# generated_at:` comment dates it.
   */
  #export(key: string, format: ExportFormat): ResourceSpec<ExportValue> {
    const path = '/api/v1/export';
    return {
      key,
      fetch: (purpose) =>
        this.client.get(path, { format }, { route: 'export', purpose }, (answer) => {
          if (answer.status !== 200) {
            return { value: rejection(answer, path), asOfText: null, size: 256 };
          }
          const text = answer.body.toString('utf8');
          const upstreamType = headerValue(answer.headers, 'content-type') ?? '';
          const contentType =
            format === 'json' ? 'application/json; charset=utf-8' : 'text/csv; charset=utf-8';
          const value: ExportValue = { status: 200, text, contentType };
          if (format === 'json') {
            let payload: unknown;
            try {
              payload = JSON.parse(text);
            } catch {
              throw this.client.malformed(`${path}?format=json`, answer, 'a body that is not JSON');
            }
            const parsed = exportJsonSchema.safeParse(payload);
            this.exportIndexes.remember(value, parsed.success ? parsed.data : null);
            return {
              value,
              asOfText: parsed.success ? parsed.data.as_of : null,
              methodologyVersion: parsed.success ? (parsed.data.methodology_version ?? null) : null,
              size: text.length * 2,
            };
          }
          if (/html/i.test(upstreamType) || /^\s*</.test(text)) {
            throw this.client.malformed(
              `${path}?format=csv`,
              answer,
              'an HTML page instead of CSV',
            );
          }
          return { value, asOfText: csvComment(text, 'generated_at'), size: text.length * 2 };
        }),
    };
  }
}

/** `# key: value` from the comment lines at the top of the CSV export. */
export function csvComments(text: string): Map<string, string> {
  const comments = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    if (!line.startsWith('#')) break;
    const match = /^#\s*([^:]+?)\s*:\s*(.*?)\s*$/.exec(line);
    if (match?.[1] !== undefined && match[2] !== undefined) comments.set(match[1], match[2]);
  }
  return comments;
}

function csvComment(text: string, name: string): string | null {
  return csvComments(text).get(name) ?? null;
}
