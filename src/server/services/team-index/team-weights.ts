import {
  indexWeightsInputSchema,
  type IndexWeights,
  type IndexWeightsResponse,
} from '../../../shared/team-index-api.js';
import { editConflict, requireVersion, zodWords } from '../api-problem.js';
import { BadRequest } from '../../refusals.js';
import type { Database } from '../../store/connection.js';
import {
  insertWeights,
  selectWeightVersions,
  type IndexWeightsRow,
} from '../../store/team-index.js';

/** Versions read and listed: an admin changes the weights now and then, not hundreds of times. */
export const VERSIONS_HELD = 50;
/**
 * How long the versions read are reused before the store is asked again: another replica's change
 * shows here within this time; this process's own change at once.
 */
const HELD_MS = 5_000;

/**
 * The version a view of a batch at `at` uses: the newest set by then, or the first ever set when
 * the batch is older than any (history is recomputed with it). `rows` oldest first.
 */
export function weightsInForceAt(
  rows: readonly IndexWeightsRow[],
  at: Date,
): IndexWeightsRow | null {
  const then = rows.filter((row) => row.setAt.getTime() <= at.getTime()).at(-1);
  return then ?? rows[0] ?? null;
}

export function weightsView(row: IndexWeightsRow): IndexWeights {
  return {
    version: row.version,
    name: row.name,
    weights: row.weights,
    set_at: row.setAt.toISOString(),
    set_by: row.setBy,
  };
}

/**
 * The team index's weights (issue 31): every version kept with its time, the newest in force.
 * `inForceAt(t)` is the version a view of a batch at `t` uses: the newest set by then, or the
 * first ever set when the batch is older than any (history is recomputed with it).
 */
export class TeamWeights {
  #held: { at: number; rows: IndexWeightsRow[] } | null = null;

  constructor(
    private readonly db: Database,
    private readonly now: () => number,
  ) {}

  /** Every version held, oldest first. */
  async versions(): Promise<IndexWeightsRow[]> {
    const now = this.now();
    if (this.#held === null || now - this.#held.at >= HELD_MS || now < this.#held.at) {
      this.#held = { at: now, rows: await selectWeightVersions(this.db, VERSIONS_HELD) };
    }
    return this.#held.rows;
  }

  async current(): Promise<IndexWeightsRow | null> {
    return (await this.versions()).at(-1) ?? null;
  }

  async inForceAt(at: Date): Promise<IndexWeightsRow | null> {
    return weightsInForceAt(await this.versions(), at);
  }

  async answer(): Promise<IndexWeightsResponse> {
    const rows = await this.versions();
    return {
      ok: true,
      current: rows.length > 0 ? weightsView(rows[rows.length - 1]!) : null,
      earlier: rows.slice(0, -1).reverse().map(weightsView),
    };
  }

  /** Sets new weights made against the version in `If-Match` (`"0"` before any are set). */
  async put(body: unknown, ifMatch: string | undefined, by: string): Promise<IndexWeightsRow> {
    const parsed = indexWeightsInputSchema.safeParse(body);
    if (!parsed.success) throw new BadRequest(zodWords(parsed.error, 'The weights are not valid'));
    this.#held = null;
    const current = await this.current();
    const version = requireVersion(ifMatch, current?.version ?? 0, 'team index weights');
    const saved = await insertWeights(
      this.db,
      { ...parsed.data, setAt: new Date(this.now()), setBy: by },
      version,
    );
    this.#held = null;
    if (saved === null) throw editConflict('team index weights');
    return saved;
  }
}
