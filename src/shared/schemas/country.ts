import { z } from 'zod/mini';
import { categoriesSchema } from './category.js';
import { countryScoresShape } from './hotspot.js';
import { eventSchema } from './event.js';

export const MAX_COUNTRY_EVENTS = 20;

export const countrySchema = z.looseObject({
  ...countryScoresShape,
  categories: z.nullish(categoriesSchema),
  events: z.nullish(z.array(eventSchema)),
});
export type Country = z.infer<typeof countrySchema>;
