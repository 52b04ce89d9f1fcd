import { z } from 'zod/mini';
import { CATEGORY_NAMES, type CategoryName } from './categories.js';
import type { Categories } from './schemas/category.js';
import { KNOWN_TIERS, TIER_BANDS, type KnownTier } from './tiers.js';
import { userTextProblem } from './user-text.js';

/*
 * Our own view of risk (issue 31): the team index (a weighted mean of the ten category scores
 * with weights an admin sets) and overrides (an editor's level for a country, with a reason and
 * an expiry). Shared by the BFF, which validates with these schemas, and the SPA.
 */

export const WEIGHT_MIN = 0;
export const WEIGHT_MAX = 10;
export const WEIGHTS_NAME_MAX = 80;
/** Overrides in force at once, for the whole team (each is shown on every risk view). */
export const OVERRIDES_MAX = 500;
export const OVERRIDE_REASON_MAX = 500;

/** Plain text of one line: control and bidi characters refused, naming the field. */
function lineOfText(field: string, max: number) {
  return z.string({ error: `${field} must be text` }).check(
    z.trim(),
    z.minLength(1, `${field} must not be empty`),
    z.maxLength(max, `${field} must be at most ${max} characters`),
    z.superRefine((text, ctx) => {
      const problem = userTextProblem(field, text);
      if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
    }),
  );
}

const weightSchema = (name: string) =>
  z
    .number({ error: `weights.${name} must be a number from ${WEIGHT_MIN} to ${WEIGHT_MAX}` })
    .check(
      z.gte(WEIGHT_MIN, `weights.${name} must be from ${WEIGHT_MIN} to ${WEIGHT_MAX}`),
      z.lte(WEIGHT_MAX, `weights.${name} must be from ${WEIGHT_MIN} to ${WEIGHT_MAX}`),
    );

/** One weight per documented category, every one given: a missing one would be a guess. */
export const categoryWeightsSchema = z
  .strictObject(
    Object.fromEntries(CATEGORY_NAMES.map((name) => [name, weightSchema(name)])) as Record<
      CategoryName,
      ReturnType<typeof weightSchema>
    >,
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `weights has an unknown category ${issue.keys.map((k) => `"${k}"`).join(', ')}: the categories are ${CATEGORY_NAMES.join(', ')}`
          : issue.input === undefined
            ? `weights must give each of ${CATEGORY_NAMES.join(', ')} a number from ${WEIGHT_MIN} to ${WEIGHT_MAX}`
            : 'weights must be an object of category names and numbers',
    },
  )
  .check(
    z.refine((weights) => Object.values(weights).some((w) => w > 0), {
      message: 'weights must give at least one category a weight above 0',
    }),
  );
export type CategoryWeights = z.infer<typeof categoryWeightsSchema>;

/** `PUT /api/index-weights`. */
export const indexWeightsInputSchema = z.strictObject({
  name: lineOfText('name', WEIGHTS_NAME_MAX),
  weights: categoryWeightsSchema,
});
export type IndexWeightsInput = z.infer<typeof indexWeightsInputSchema>;

/** One version of the weights, kept with its time: a view of a past batch uses the one then. */
export const indexWeightsSchema = z.object({
  version: z.int(),
  name: z.string(),
  weights: z.record(z.string(), z.number()),
  set_at: z.string(),
  set_by: z.string(),
});
export type IndexWeights = z.infer<typeof indexWeightsSchema>;

export const indexWeightsResponseSchema = z.object({
  ok: z.literal(true),
  /** Null until an admin sets weights: the team index is then unavailable. */
  current: z.nullable(indexWeightsSchema),
  /** Every earlier version, newest first (at most 50 listed). */
  earlier: z.array(indexWeightsSchema),
});
export type IndexWeightsResponse = z.infer<typeof indexWeightsResponseSchema>;

/** `PUT /api/overrides/:iso`. `expires` is a date or a date-time, in the future. */
export const overrideInputSchema = z.strictObject({
  tier: z.enum(KNOWN_TIERS, { error: `tier must be one of ${KNOWN_TIERS.join(', ')}` }),
  reason: lineOfText('reason', OVERRIDE_REASON_MAX),
  expires: z.string({ error: 'expires must be an ISO date such as 2027-01-31' }),
});
export type OverrideInput = z.infer<typeof overrideInputSchema>;

export const overrideSchema = z.object({
  iso: z.string(),
  tier: z.enum(KNOWN_TIERS),
  reason: z.string(),
  expires: z.string(),
  set_at: z.string(),
  set_by: z.string(),
  version: z.int(),
});
export type Override = z.infer<typeof overrideSchema>;

export const overrideResponseSchema = z.object({ ok: z.literal(true), override: overrideSchema });
export const overridesResponseSchema = z.object({
  ok: z.literal(true),
  limit: z.int(),
  overrides: z.array(overrideSchema),
});

/** Which figure a risk view shows: the provider's (default) or the team index. */
/** Weights with every category at 0, and `given` set: a full set from the ones that count. */
export function weightsOf(given: Partial<Record<CategoryName, number>>): CategoryWeights {
  const zero = Object.fromEntries(CATEGORY_NAMES.map((name) => [name, 0]));
  return { ...zero, ...given } as CategoryWeights;
}

export const RISK_INDEXES = ['provider', 'team'] as const;
export type RiskIndex = (typeof RISK_INDEXES)[number];

/** What an answer in the team view says about itself (`index` at its top). */
export interface TeamIndexNote {
  kind: 'team';
  name: string;
  version: number;
  set_at: string;
  weights: Record<string, number>;
  /** `today`: the current weights; `then`: the weights in force at the batch's time. */
  weights_used: 'today' | 'then';
  note: string;
}

/**
 * The team index of one row: Σ wₖ·scoreₖ / Σ wₖ over the categories that have a score (a missing
 * score leaves its weight out rather than counting as 0); null when no weighted category has one
 * (a batch recorded from the hotspot list carries no categories). Rounded to 0.01.
 */
export function teamIndexOf(
  categories: Categories | null | undefined,
  weights: Record<string, number>,
): number | null {
  if (!categories) return null;
  let sum = 0;
  let weightSum = 0;
  for (const name of CATEGORY_NAMES) {
    const weight = weights[name] ?? 0;
    const score = categories[name]?.score;
    if (weight <= 0 || typeof score !== 'number' || !Number.isFinite(score)) continue;
    sum += weight * score;
    weightSum += weight;
  }
  return weightSum === 0 ? null : Math.round((sum / weightSum) * 100) / 100;
}

/** The methodology band a team index falls in (the same bands as the provider's tiers). */
export function bandOf(index: number | null): KnownTier | null {
  if (index === null) return null;
  return TIER_BANDS.find((band) => index >= band.min)?.tier ?? null;
}

/**
 * What a row says in the team view besides its team figures: the provider's own risk and tier
 * (always beside ours) and the override in force, if any. Null for a row of the provider's view.
 */
export const teamRowExtrasSchema = z.object({
  provider: z.object({ risk: z.nullable(z.number()), tier: z.nullable(z.string()) }),
  tier_source: z.enum(['override', 'team_index']),
  override: z.nullable(overrideSchema),
});
export type TeamRowExtras = z.infer<typeof teamRowExtrasSchema>;

export function teamRowExtras(row: unknown): TeamRowExtras | null {
  const parsed = teamRowExtrasSchema.safeParse(row);
  return parsed.success ? parsed.data : null;
}
