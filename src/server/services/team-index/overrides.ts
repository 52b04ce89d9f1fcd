import {
  OVERRIDES_MAX,
  overrideInputSchema,
  type Override,
} from '../../../shared/team-index-api.js';
import { readTime } from '../../../shared/time-text.js';
import { ApiProblem, BadRequest, NotFound } from '../../refusals.js';
import type { Database } from '../../store/connection.js';
import {
  endOverride,
  selectOverride,
  selectOverridesAt,
  selectOverridesInForce,
  writeOverride,
  type OverrideRow,
} from '../../store/team-index.js';
import { editConflict, requireVersion, zodWords } from '../api-problem.js';

/** How long the overrides in force are reused before the store is asked again (other replicas). */
const HELD_MS = 5_000;
/** Batch times whose overrides `at` holds (the overview and a few as-of views at once). */
const AT_HELD = 16;
const DAY_MS = 86_400_000;

export function overrideView(row: OverrideRow): Override {
  return {
    iso: row.iso,
    tier: row.tier as Override['tier'],
    reason: row.reason,
    expires: row.expiresAt.toISOString(),
    set_at: row.setAt.toISOString(),
    set_by: row.setBy,
    version: row.version,
  };
}

/**
 * `expires`: a date (the override ends at the end of that UTC day) or a date-time; it must be in
 * the future, else the override would end before anyone saw it.
 */
function expiryOf(text: string, now: number): Date {
  const ms = readTime(text);
  if (ms === null) {
    throw new BadRequest('expires must be an ISO date such as 2027-01-31 (or a date-time)');
  }
  const at = /^\d{4}-\d{2}-\d{2}$/.test(text.trim()) ? ms + DAY_MS : ms;
  if (at <= now) throw new BadRequest('expires must be in the future');
  return new Date(at);
}

/** Overrides in force at a batch's time, by ISO code (for the team view and the alert rules). */
export async function overridesInForceAt(
  db: Database,
  time: Date,
): Promise<Map<string, OverrideRow>> {
  const rows = await selectOverridesAt(db, time);
  return new Map(rows.filter((row) => row.expiresAt > time).map((row) => [row.iso, row] as const));
}

/** An alert's numbers with the override in force for them (issue 31: tier-change rules). */
export function withOverride<T extends object>(numbers: T, row: OverrideRow | undefined): T {
  if (!row) return numbers;
  return { ...numbers, override: { tier: row.tier, reason: row.reason, set_by: row.setBy } };
}

/**
 * Overrides of a country's level (issue 31): one in force per country, at most OVERRIDES_MAX
 * for the team; each set, change and end keeps the row before it, so a view of a past batch
 * shows the overrides in force then.
 */
export class Overrides {
  #held: { at: number; rows: Map<string, OverrideRow> } | null = null;
  #heldAt = new Map<number, { at: number; rows: Map<string, OverrideRow> }>();

  constructor(
    private readonly db: Database,
    private readonly now: () => number,
  ) {}

  /** Overrides in force now, by ISO code. */
  async inForce(): Promise<Map<string, OverrideRow>> {
    const now = this.now();
    if (this.#held === null || now - this.#held.at >= HELD_MS || now < this.#held.at) {
      const rows = await selectOverridesInForce(this.db);
      this.#held = { at: now, rows: new Map(rows.map((row) => [row.iso, row])) };
    }
    // One that expired since the job last ran is not shown as in force meanwhile.
    return new Map([...this.#held.rows].filter(([, row]) => row.expiresAt.getTime() > now));
  }

  /**
   * Overrides in force at a batch's time, by ISO code: held for HELD_MS per time (the last
   * AT_HELD times asked), as `inForce` is, so the team view of a batch asks the store once.
   */
  async at(time: Date): Promise<Map<string, OverrideRow>> {
    const now = this.now();
    const key = time.getTime();
    const held = this.#heldAt.get(key);
    if (held && now - held.at < HELD_MS && now >= held.at) return held.rows;
    const rows = await overridesInForceAt(this.db, time);
    this.#heldAt.delete(key);
    this.#heldAt.set(key, { at: now, rows });
    if (this.#heldAt.size > AT_HELD) this.#heldAt.delete(this.#heldAt.keys().next().value!);
    return rows;
  }

  async get(iso: string): Promise<OverrideRow> {
    const row = await selectOverride(this.db, iso);
    if (!row) throw new NotFound(`${iso} has no override in force`);
    return row;
  }

  async put(iso: string, body: unknown, ifMatch: string | undefined, by: string) {
    const parsed = overrideInputSchema.safeParse(body);
    if (!parsed.success) throw new BadRequest(zodWords(parsed.error, 'The override is not valid'));
    const now = this.now();
    const expiresAt = expiryOf(parsed.data.expires, now);
    const before = await selectOverride(this.db, iso);
    const version = requireVersion(ifMatch, before?.version ?? 0, `override of ${iso}`);
    const row = { iso, tier: parsed.data.tier, reason: parsed.data.reason, expiresAt };
    const saved = await writeOverride(
      this.db,
      { ...row, setAt: new Date(now), setBy: by },
      version,
      OVERRIDES_MAX,
    );
    this.#held = null;
    this.#heldAt.clear();
    if (saved === 'stale') throw editConflict(`override of ${iso}`);
    if (saved === 'full') {
      throw new ApiProblem(
        409,
        `The team already has ${OVERRIDES_MAX} overrides in force, the most it may have: end one before setting another`,
      );
    }
    return { before, saved };
  }

  async delete(iso: string, ifMatch: string | undefined): Promise<OverrideRow> {
    const current = await this.get(iso);
    const version = requireVersion(ifMatch, current.version, `override of ${iso}`);
    const ended = await endOverride(this.db, iso, version, new Date(this.now()), 'deleted');
    this.#held = null;
    this.#heldAt.clear();
    if (!ended) throw editConflict(`override of ${iso}`);
    return ended;
  }

  /** Forgets what it read (the expiry job ended some). */
  forget(): void {
    this.#held = null;
    this.#heldAt.clear();
  }
}
