import { z } from 'zod/mini';
import { optionalBoolean, optionalString } from './common.js';

/** A news event. Roles are `locus`/`actor`; source labels are free text (never switched on). */
export const eventSchema = z.looseObject({
  ts: z.string(),
  headline: z.string(),
  url: optionalString,
  source: optionalString,
  source_name: optionalString,
  source_category: optionalString,
  source_tier: optionalString,
  role: optionalString,
  breaking: optionalBoolean,
  state_affiliated: optionalBoolean,
});
export type RiskEvent = z.infer<typeof eventSchema>;
