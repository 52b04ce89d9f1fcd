import { z } from 'zod';
import {
  OVERRIDE_REASON_MAX,
  OVERRIDES_MAX,
  WEIGHT_MAX,
  WEIGHT_MIN,
  indexWeightsInputSchema,
  indexWeightsResponseSchema,
  indexWeightsSchema,
  overrideInputSchema,
  overrideResponseSchema,
  overridesResponseSchema,
} from '../../shared/team-index-api.js';

const TAG = 'Team index' as const;
const json = (schema: z.core.$ZodType, status = 200) => ({ status, schema });
const weightsSaved = z.object({ ok: z.literal(true), weights: indexWeightsSchema });

/**
 * The OpenAPI entries of the team index routes (issue 31), with their limits in words (checked
 * against ApiOperation where api-description.ts spreads them in). The
 * data and history routes take `index=provider|team` and `weights=today|then` in their own
 * query schemas.
 */
export const teamIndexOperations = {
  'GET /api/index-weights': {
    summary:
      'The team index weights in force (null until set) and earlier versions (ETag: the version)',
    tag: TAG,
    success: json(indexWeightsResponseSchema),
  },
  'PUT /api/index-weights': {
    summary: `Set the team index weights (admin; If-Match: the ETag read, "0" before any): each of the ten categories ${WEIGHT_MIN}–${WEIGHT_MAX}, at least one above 0; every version is kept with its time`,
    tag: TAG,
    body: indexWeightsInputSchema,
    success: json(weightsSaved),
  },
  'GET /api/overrides': {
    summary: `Every override in force (at most ${OVERRIDES_MAX} for the team)`,
    tag: TAG,
    success: json(overridesResponseSchema),
  },
  'GET /api/overrides/:iso': {
    summary: 'The override of a country in force (404 when none); ETag: its version',
    tag: TAG,
    success: json(overrideResponseSchema),
  },
  'PUT /api/overrides/:iso': {
    summary: `Set or change a country's override (editor; If-Match, "0" when none): a tier, a reason of at most ${OVERRIDE_REASON_MAX} characters and a future expiry; at most ${OVERRIDES_MAX} in force; ends by itself at its expiry`,
    tag: TAG,
    body: overrideInputSchema,
    success: json(overrideResponseSchema),
  },
  'DELETE /api/overrides/:iso': {
    summary: "End a country's override (editor; If-Match with its ETag)",
    tag: TAG,
    success: json(overrideResponseSchema),
  },
} as const;
