import { z } from 'zod/mini';
import { categoriesSchema } from './category.js';
import { optionalInteger, optionalNumber, optionalString } from './common.js';
import { eventSchema } from './event.js';

/** Fields shared by a hotspot row and the country object. `tier` is free text (any label). */
export const countryScoresShape = {
  iso: z.string().check(z.minLength(1)),
  name: z.string(),
  risk: optionalNumber,
  tier: optionalString,
  static: optionalNumber,
  active: optionalNumber,
  delta_active: optionalNumber,
  delta_headline: optionalNumber,
  confidence: optionalNumber,
  profile: optionalString,
  threat_vectors: z.nullish(z.array(z.string())),
  source_count: optionalInteger,
  lat: optionalNumber,
  lng: optionalNumber,
};

export const hotspotSchema = z.looseObject({
  ...countryScoresShape,
  // Added by `include=categories,events`; their shape is not documented, so a malformed value
  // is dropped rather than failing the row.
  categories: z.catch(z.optional(categoriesSchema), undefined),
  events: z.catch(z.optional(z.array(eventSchema)), undefined),
});
export type Hotspot = z.infer<typeof hotspotSchema>;
