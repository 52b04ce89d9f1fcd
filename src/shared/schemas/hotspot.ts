import { z } from 'zod';
import { categoriesSchema } from './category.js';
import { optionalInteger, optionalNumber, optionalString } from './common.js';
import { eventSchema } from './event.js';

/** Fields shared by a hotspot row and the country object. `tier` is free text (any label). */
export const countryScoresShape = {
  iso: z.string().min(1),
  name: z.string(),
  risk: optionalNumber,
  tier: optionalString,
  static: optionalNumber,
  active: optionalNumber,
  delta_active: optionalNumber,
  delta_headline: optionalNumber,
  confidence: optionalNumber,
  profile: optionalString,
  threat_vectors: z.array(z.string()).nullish(),
  source_count: optionalInteger,
  lat: optionalNumber,
  lng: optionalNumber,
};

export const hotspotSchema = z.looseObject({
  ...countryScoresShape,
  // Added by `include=categories,events`; their shape is not documented, so a malformed value
  // is dropped rather than failing the row.
  categories: categoriesSchema.optional().catch(undefined),
  events: z.array(eventSchema).optional().catch(undefined),
});
export type Hotspot = z.infer<typeof hotspotSchema>;
