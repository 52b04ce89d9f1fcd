import { z } from 'zod';
import { categoriesSchema } from './category.js';
import { countryScoresShape } from './hotspot.js';
import { eventSchema } from './event.js';

export const MAX_COUNTRY_EVENTS = 20;

export const countrySchema = z.looseObject({
  ...countryScoresShape,
  categories: categoriesSchema.nullish(),
  events: z.array(eventSchema).nullish(),
});
export type Country = z.infer<typeof countrySchema>;
