import { bandOf, teamIndexOf, type TeamIndexNote } from '../../../shared/team-index-api.js';
import type { Categories } from '../../../shared/schemas/category.js';
import { ApiProblem } from '../../refusals.js';
import type { IndexWeightsRow, OverrideRow } from '../../store/team-index.js';
import { overrideView, type Overrides } from './overrides.js';
import type { TeamWeights } from './team-weights.js';

/** Each batch's compact scores by country (`batch_scores`), keyed by the batch's time in ms. */
export type ScoresAt = (times: readonly Date[]) => Promise<Map<number, ScoresByIso>>;
export type ScoresByIso = Record<string, Array<number | null>>;
export interface CompactScores {
  at: ScoresAt;
  /** Batches without their compact scores yet (null: not counted yet). */
  left: () => number | null;
}

/** `today`: the weights in force now; `then`: the weights in force at each batch's time. */
export type WeightsChoice = 'today' | 'then';

/** What an answer in the team view is computed with. */
export interface TeamLens {
  weights: IndexWeightsRow;
  used: WeightsChoice;
  /** Overrides in force at the answer's batch, by ISO code. */
  overrides: Map<string, OverrideRow>;
}

/** A row of any risk answer: a country of a batch, or a point of a country's history. */
interface RiskRow {
  iso?: string;
  risk?: number | null;
  tier?: string | null;
  categories?: Categories | null;
  [field: string]: unknown;
}

/**
 * Team answers held (the overview's countries, its hotspot lists and country pages): a few
 * batches × weights versions × override sets × hotspot queries; each is one batch's ~170 rows.
 */
export const TEAM_ANSWERS_HELD = 32;

/** What the overrides in force are, as a key: a set, change, end or expiry makes another. */
function overridesKey(overrides: ReadonlyMap<string, OverrideRow>): string {
  const parts: string[] = [];
  for (const row of overrides.values()) parts.push(`${row.iso}:${row.version}`);
  return parts.sort().join(',');
}

const NO_WEIGHTS =
  'No team index weights are set yet: an admin sets them with PUT /api/index-weights';

/**
 * The team view of the risk answers (issue 31): `risk` and `tier` become the team index and its
 * tier (an override's tier where one is in force, else the band the index falls in), the
 * provider's figures stay beside them under `provider`, and the answer says so under `index`.
 */
export class TeamView {
  /** Built team answers by (kind, weights version, weights used, overrides), with their source. */
  readonly #answers = new Map<string, { source: unknown; built: unknown }>();

  constructor(
    private readonly weights: TeamWeights,
    private readonly overrides: Overrides,
    /**
     * The batches' compact scores (What changed in the team view, team-changes.ts), and how many
     * batches still wait for theirs (jobs/batch-scores-fill.ts).
     */
    readonly scores: CompactScores,
  ) {}

  /** The lens of the newest batch: today's weights and the overrides in force now. */
  async now(): Promise<TeamLens> {
    const weights = await this.weights.current();
    if (!weights) throw new ApiProblem(409, NO_WEIGHTS);
    return { weights, used: 'today', overrides: await this.overrides.inForce() };
  }

  /** The lens of a past batch: the weights in force then unless today's are asked for. */
  async at(time: Date, choice: WeightsChoice): Promise<TeamLens> {
    const weights =
      choice === 'today' ? await this.weights.current() : await this.weights.inForceAt(time);
    if (!weights) throw new ApiProblem(409, NO_WEIGHTS);
    return { weights, used: choice, overrides: await this.overrides.at(time) };
  }

  /**
   * The team answer of `kind` built from `source` with `lens`, held per (source, weights version,
   * overrides) so the team view costs about what the provider's does (issue 31: within 10 %):
   * `source` is the provider answer's identity (the cached body's bytes, or a recorded batch's
   * time, which never changes). A new batch, weights or override set builds anew.
   */
  held<T>(kind: string, source: unknown, lens: TeamLens, build: () => T): T {
    const key = `${kind}|${lens.weights.version}|${lens.used}|${overridesKey(lens.overrides)}`;
    const found = this.#answers.get(key);
    if (found && found.source === source) return found.built as T;
    const built = build();
    this.#answers.delete(key);
    this.#answers.set(key, { source, built });
    if (this.#answers.size > TEAM_ANSWERS_HELD) {
      this.#answers.delete(this.#answers.keys().next().value!);
    }
    return built;
  }

  /** Today's weights, for a history series (no overrides: they belong to a batch). */
  async forHistory(choice: WeightsChoice): Promise<(at: Date) => Promise<IndexWeightsRow>> {
    const current = await this.weights.current();
    if (!current) throw new ApiProblem(409, NO_WEIGHTS);
    if (choice === 'today') return async () => current;
    return async (at) => (await this.weights.inForceAt(at)) ?? current;
  }
}

export function teamNote(weights: IndexWeightsRow, used: WeightsChoice): TeamIndexNote {
  return {
    kind: 'team',
    name: weights.name,
    version: weights.version,
    set_at: weights.setAt.toISOString(),
    weights: weights.weights,
    weights_used: used,
    note: `risk is the team index "${weights.name}" (the weighted mean of the category scores) and tier its band or an override's tier; the provider's figures are under provider`,
  };
}

/** One row in the team view. */
export function teamRow<T extends RiskRow>(row: T, lens: Omit<TeamLens, 'used'>): T {
  const index = teamIndexOf(row.categories, lens.weights.weights);
  const override = row.iso ? lens.overrides.get(row.iso.toUpperCase()) : undefined;
  return {
    ...row,
    risk: index,
    tier: override?.tier ?? bandOf(index),
    tier_source: override ? 'override' : 'team_index',
    provider: { risk: row.risk ?? null, tier: row.tier ?? null },
    override: override ? overrideView(override) : null,
  };
}

const byRiskDesc = (a: RiskRow, b: RiskRow): number =>
  (b.risk ?? Number.NEGATIVE_INFINITY) - (a.risk ?? Number.NEGATIVE_INFINITY);

/** `/api/countries` (or as of a batch) in the team view. */
export function teamCountries(body: { countries: RiskRow[] }, lens: TeamLens): object {
  return {
    ...body,
    index: teamNote(lens.weights, lens.used),
    countries: body.countries.map((row) => teamRow(row, lens)),
  };
}

/** `/api/v1/country/:iso` in the team view. */
export function teamCountry(body: { country?: RiskRow }, lens: TeamLens): object {
  if (!body.country) return body;
  return {
    ...body,
    index: teamNote(lens.weights, lens.used),
    country: teamRow(body.country, lens),
  };
}

/**
 * The hotspot list in the team view, from the batch's countries (hotspot rows carry no
 * categories): ranked by the team index, filtered by team tier, cut to `limit`. Events are not
 * part of a batch's countries: `include=events` is answered without them, and says so.
 */
export function teamHotspots(
  body: { countries: RiskRow[]; [field: string]: unknown },
  lens: TeamLens,
  query: { tiers: string[]; limit: number; include: string[] },
): object {
  const { countries, count: _count, ...head } = body;
  const rows = countries
    .map((row) => teamRow(row, lens))
    .filter((row) => query.tiers.length === 0 || query.tiers.includes(row.tier ?? ''))
    .sort(byRiskDesc)
    .slice(0, query.limit)
    .map(({ categories, ...row }) =>
      query.include.includes('categories') ? { ...row, categories } : row,
    );
  const note = teamNote(lens.weights, lens.used);
  return {
    ...head,
    index: query.include.includes('events')
      ? { ...note, note: `${note.note}; events are not listed in the team view` }
      : note,
    count: rows.length,
    hotspots: rows,
  };
}

/** A country's history in the team view: each point's risk is its team index. */
export async function teamHistory(
  body: { points: RiskRow[]; [field: string]: unknown },
  weightsAt: (at: Date) => Promise<IndexWeightsRow>,
  used: WeightsChoice,
): Promise<object> {
  const points: RiskRow[] = [];
  let newest: IndexWeightsRow | null = null;
  for (const point of body.points) {
    const weights = await weightsAt(new Date(String(point.as_of)));
    newest = weights;
    const { override: _none, ...row } = teamRow(point, { weights, overrides: new Map() });
    points.push(row);
  }
  newest ??= await weightsAt(new Date());
  return { ...body, index: teamNote(newest, used), points };
}
