import { z } from 'zod/mini';
import { optionalInteger, optionalString } from './common.js';
import { countrySchema } from './country.js';
import { globalSummarySchema } from './global.js';
import { hotspotSchema } from './hotspot.js';

/** `GET /api/v1/hotspots` (200). */
export const hotspotsResponseSchema = z.looseObject({
  ok: z.literal(true),
  as_of: z.string(),
  methodology_version: optionalString,
  global: z.nullish(globalSummarySchema),
  count: optionalInteger,
  hotspots: z.array(hotspotSchema),
});
export type HotspotsResponse = z.infer<typeof hotspotsResponseSchema>;

/** `GET /api/v1/country/{iso}` (200). */
export const countryResponseSchema = z.looseObject({
  ok: z.literal(true),
  as_of: z.string(),
  country: countrySchema,
});
export type CountryResponse = z.infer<typeof countryResponseSchema>;

/**
 * `GET /api/v1/export?format=json`. Only `as_of` is relied on; `countries` is used when it is an
 * array of objects with `iso` (the demo upstream's choice) or an object keyed by ISO code, each
 * element parsed on its own so one bad record does not discard the rest.
 */
export const exportJsonSchema = z.looseObject({
  as_of: z.string(),
  methodology_version: optionalString,
  global: z.nullish(globalSummarySchema),
  countries: z.optional(z.unknown()),
});
export type ExportJson = z.infer<typeof exportJsonSchema>;

export function exportCountries(payload: ExportJson): z.infer<typeof countrySchema>[] | null {
  const raw = payload.countries;
  // The document does not say whether `countries` is an array or an object keyed by ISO code:
  // both are read (a keyed record without its own `iso` takes the key).
  let items: unknown[];
  if (Array.isArray(raw)) items = raw;
  else if (raw !== null && typeof raw === 'object') {
    items = Object.entries(raw).map(([key, value]) =>
      value !== null && typeof value === 'object' && !('iso' in value)
        ? { ...value, iso: key }
        : value,
    );
  } else return null;
  const parsed = items.flatMap((item: unknown) => {
    const result = countrySchema.safeParse(item);
    return result.success ? [result.data] : [];
  });
  return parsed.length > 0 ? parsed : null;
}
