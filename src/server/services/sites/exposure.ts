import { setImmediate as nextTurn } from 'node:timers/promises';
import type {
  ExposureMove,
  ExposurePoint,
  ExposureResponse,
  ExposureWeight,
} from '../../../shared/sites-api.js';
import { TIER_BANDS } from '../../../shared/tiers.js';
import { overridesInForceAt } from '../team-index/overrides.js';
import { selectOverridesInForce, type OverrideRow } from '../../store/team-index.js';
import type { CountryRow } from '../../store/batches.js';
import { selectRiskHistory } from '../../store/series.js';
import type { HistoryStore } from '../../store/history-store.js';
import { BadRequest } from '../../refusals.js';
import type { SiteRow } from '../../store/sites.js';
import { RevisionMemo, type MemoLimits } from '../history/revision-memo.js';
import type { BatchCountries } from './current-batch.js';
import { filterSites, type SiteFilters } from './site-filters.js';
import type { SiteService } from './site-service.js';
import { siteBrief } from './site-views.js';
import { DAY_MS } from '../../../shared/durations.js';
import { exposureOf, weightedRisk } from '../../../shared/site-exposure.js';
import { TimeSlice } from '../../work/time-slice.js';
import type { TeamLens } from '../team-index/team-view.js';
import { teamExposure } from './team-exposure.js';
import { byTier, type CountryGroup, type TierOf } from './exposure-tiers.js';

/** A country "moved" when its tier changed or its risk moved by at least this many points. */
export const MOVED_MIN_RISK = 1;
const MOVED_MAX = 50;
/** Countries whose recorded risks are read per store query (two years: ~30 ms each on PGlite). */
const RISK_READ_COUNTRIES = 20;
const EXAMPLES_MAX = 10;
const RISKIEST_MAX = 20;

/** Every recorded risk of one set of countries: batch times (ms, oldest first) × countries. */
export interface RiskMatrix {
  times: number[];
  risks: Map<string, Float64Array>;
}

/** A country set's matrix is 8 bytes a batch and country: two years of 175 countries ~2 MB. */
export const RISK_MEMO_LIMITS: MemoLimits = { maxEntries: 32, maxBytes: 32 * 1024 * 1024 };

function groupByCountry(rows: readonly SiteRow[]): Map<string, CountryGroup> {
  const groups = new Map<string, CountryGroup>();
  for (const row of rows) {
    let group = groups.get(row.iso);
    if (!group) {
      group = { iso: row.iso, sites: [], people: 0, value: 0 };
      groups.set(row.iso, group);
    }
    group.sites.push(row);
    group.people += row.people ?? 0;
    group.value += row.value ?? 0;
  }
  return groups;
}

/** Each country's weight: its sites' people (or value); by site count when none has any. */
function weightsOf(groups: Map<string, CountryGroup>, weight: ExposureWeight): Map<string, number> {
  const by = (g: CountryGroup): number => (weight === 'value' ? g.value : g.people);
  const total = [...groups.values()].reduce((sum, g) => sum + by(g), 0);
  return new Map(
    [...groups.values()].map((g) => [g.iso, total > 0 ? by(g) : g.sites.length] as const),
  );
}

const byPeople = (a: SiteRow, b: SiteRow): number =>
  (b.people ?? 0) - (a.people ?? 0) || a.id - b.id;

/**
 * `/api/exposure`: our sites and people by their country's tier, the countries of ours that moved
 * (since the previous batch, 24 h, 7 d before the newest batch), the riskiest sites, and the
 * exposure index (the weighted mean of our countries' risk) now and over the whole recorded
 * history; with `as_of`, all of it as of that recorded batch. The history is read once per country set and store revision (one query over the
 * recorded rows of those countries), then any weighting is arithmetic in memory.
 */
export class ExposureService {
  readonly #risks: RevisionMemo<RiskMatrix>;

  constructor(
    private readonly sites: SiteService,
    private readonly store: HistoryStore,
    limits: MemoLimits = RISK_MEMO_LIMITS,
  ) {
    this.#risks = new RevisionMemo(limits);
  }

  /**
   * `asOf` (null: the newest batch) answers as that recorded batch stood: its countries' numbers,
   * the moves relative to it and the trend up to it, from the store alone.
   */
  /** A recorded batch's citable id (issue 22), or null while the chain has not reached it. */
  async citableId(batchId: number): Promise<string | null> {
    return (await this.store.chainIds([batchId])).get(batchId) ?? null;
  }

  /**
   * `teamLens` (issue 31, `?index=team`): the team view's lens for the batch shown; `by_tier`
   * then counts by our tier (team-exposure.ts), the provider's count beside it.
   */
  async answer(
    filters: SiteFilters,
    weight: ExposureWeight,
    asOf: Date | null = null,
    teamLens?: (batchTime: Date) => Promise<TeamLens>,
  ): Promise<ExposureResponse> {
    const [{ rows: all }, latest] = await Promise.all([
      this.sites.all(),
      this.sites.batches.at(asOf),
    ]);
    // Before the first batch is refused in words: an empty answer would look like calm.
    if (asOf && !latest) {
      throw new BadRequest(`as_of ${asOf.toISOString()} is before the first recorded batch`);
    }
    const rows = filterSites(all, filters, latest?.byIso);
    // Our overrides at the batch shown (issue 31): a site in an overridden country ranks by ours.
    const overrides = asOf
      ? await overridesInForceAt(this.store.db, asOf)
      : new Map((await selectOverridesInForce(this.store.db)).map((row) => [row.iso, row]));
    const groups = groupByCountry(rows);
    const weights = weightsOf(groups, weight);
    const now = latest?.batch.asOf.getTime() ?? null;
    const [previous, day, week, matrix] = await Promise.all([
      now === null ? null : this.sites.batches.at(new Date(now - 1)),
      now === null ? null : this.sites.batches.at(new Date(now - DAY_MS)),
      now === null ? null : this.sites.batches.at(new Date(now - 7 * DAY_MS)),
      this.matrix([...groups.keys()]),
    ]);
    // The trend ends at the batch shown: later batches were not recorded yet as of then.
    const trend = trendOf(matrix, weights, now ?? Infinity);
    // Cited by its id, as every answer of a batch is (issue 22): one indexed lookup.
    const batchId = latest ? await this.citableId(latest.batch.id) : null;
    const tiered = latest ? { ...latest, overrides } : null;
    const answer: ExposureResponse = {
      ok: true,
      as_of: latest?.batch.asOf.toISOString() ?? null,
      batch_id: batchId,
      weight,
      sites: rows.length,
      people: [...groups.values()].reduce((sum, g) => sum + g.people, 0),
      by_tier: byTier(groups, overriddenTierOf(latest, overrides)),
      moved: {
        previous_batch: moved(groups, tiered, await this.withOverrides(previous)),
        day: moved(groups, tiered, await this.withOverrides(day)),
        week: moved(groups, tiered, await this.withOverrides(week)),
      },
      riskiest: await riskiest(rows, latest, overrides),
      index: { now: indexAt(weights, (iso) => latest?.byIso.get(iso)?.risk ?? null), trend },
    };
    if (!teamLens || !latest) return answer;
    return teamExposure(answer, groups, latest, await teamLens(latest.batch.asOf));
  }

  /** A batch with the overrides in force at its time (issue 31: `moved` compares our tiers). */
  async withOverrides(batch: BatchCountries | null): Promise<TieredBatch | null> {
    if (!batch) return null;
    return { ...batch, overrides: await overridesInForceAt(this.store.db, batch.batch.asOf) };
  }

  /** The recorded risks of these countries, read once per store revision and country set. */
  matrix(isos: string[]): Promise<RiskMatrix> {
    const set = [...isos].sort();
    return this.#risks.get(
      this.store.batchRevision,
      set.join(','),
      async () => undefined,
      async () => {
        // Sealed months from their risk series: a cold read of two years was 666 ms of CPU from
        // the rows alone, 478 ms from the blocks (docs/benchmarks.md, section 10).
        // A few countries a read, with a turn of the event loop between reads: the embedded
        // store answers each on the main thread, and all of them at once was one long stretch
        // (issue 29). Each read is whole for its countries, so the matrix is the same.
        const found: Awaited<ReturnType<typeof selectRiskHistory>> = [];
        for (let i = 0; i < set.length; i += RISK_READ_COUNTRIES) {
          if (i > 0) await nextTurn();
          found.push(
            ...(await selectRiskHistory(this.store.db, set.slice(i, i + RISK_READ_COUNTRIES))),
          );
        }
        const times = [...new Set(found.map((r) => r.at))].sort((a, b) => a - b);
        const slot = new Map(times.map((t, i) => [t, i]));
        const risks = new Map(set.map((iso) => [iso, new Float64Array(times.length).fill(NaN)]));
        for (const r of found) {
          const column = risks.get(r.iso);
          const at = slot.get(r.at);
          if (column && at !== undefined && r.risk !== null) column[at] = r.risk;
        }
        return { value: { times, risks }, chars: 4 * times.length * (set.length + 1) + 64 };
      },
    );
  }
}

function indexAt(
  weights: Map<string, number>,
  riskOf: (iso: string) => number | null,
): number | null {
  let sum = 0;
  let total = 0;
  for (const [iso, w] of weights) {
    const risk = riskOf(iso);
    if (risk === null || Number.isNaN(risk) || w <= 0) continue;
    sum += w * risk;
    total += w;
  }
  return total > 0 ? Math.round((sum / total) * 100) / 100 : null;
}

function trendOf(matrix: RiskMatrix, weights: Map<string, number>, until: number): ExposurePoint[] {
  const points: ExposurePoint[] = [];
  for (const [i, time] of matrix.times.entries()) {
    if (time > until) break;
    points.push({
      as_of: new Date(time).toISOString(),
      index: indexAt(weights, (iso) => matrix.risks.get(iso)?.[i] ?? null),
    });
  }
  return points;
}

/** A batch's countries with the overrides in force at its time, by ISO code. */
type TieredBatch = BatchCountries & { overrides: ReadonlyMap<string, { tier: string }> };

/** Our tier of a country in a batch: an override's where one is in force, else the provider's. */
function ourTier(batch: TieredBatch, iso: string): string | null {
  return batch.overrides.get(iso)?.tier ?? batch.byIso.get(iso)?.tier ?? null;
}

/** Our tier (the default view): an override's where one is in force, else the provider's. */
function overriddenTierOf(
  latest: BatchCountries | null,
  overrides: ReadonlyMap<string, { tier: string }>,
): TierOf {
  return (iso) => {
    const override = latest ? overrides.get(iso) : undefined;
    return { tier: override?.tier ?? latest?.byIso.get(iso)?.tier ?? null, overridden: !!override };
  };
}

function moved(
  groups: Map<string, CountryGroup>,
  latest: TieredBatch | null,
  before: TieredBatch | null,
): { since: string | null; countries: ExposureMove[] } {
  if (!latest || !before || before.batch.id === latest.batch.id) {
    return { since: before?.batch.asOf.toISOString() ?? null, countries: [] };
  }
  const moves: ExposureMove[] = [];
  for (const group of groups.values()) {
    const now: CountryRow | undefined = latest.byIso.get(group.iso);
    const then: CountryRow | undefined = before.byIso.get(group.iso);
    if (!now || !then) continue;
    // Our tiers: an override set or ended between the batches is a move of ours (issue 31).
    const [tierBefore, tierNow] = [ourTier(before, group.iso), ourTier(latest, group.iso)];
    const tierChanged = tierNow !== tierBefore;
    const riskMove = Math.abs((now.risk ?? 0) - (then.risk ?? 0));
    if (!tierChanged && riskMove < MOVED_MIN_RISK) continue;
    const overridden = before.overrides.has(group.iso) || latest.overrides.has(group.iso);
    moves.push({
      iso: group.iso,
      name: now.name,
      tier_before: tierBefore,
      tier_now: tierNow,
      ...(overridden ? { provider_tier_before: then.tier, provider_tier_now: now.tier } : {}),
      risk_before: then.risk,
      risk_now: now.risk,
      active_before: then.active,
      active_now: now.active,
      sites: group.sites.length,
      people: group.people,
      examples: [...group.sites].sort(byPeople).slice(0, EXAMPLES_MAX).map(siteBrief),
    });
  }
  const size = (m: ExposureMove): number =>
    (m.tier_before !== m.tier_now ? 1000 : 0) + Math.abs((m.risk_now ?? 0) - (m.risk_before ?? 0));
  moves.sort((a, b) => size(b) - size(a) || a.iso.localeCompare(b.iso));
  return { since: before.batch.asOf.toISOString(), countries: moves.slice(0, MOVED_MAX) };
}

/**
 * The risk a country ranks by under our override: its risk held inside the override tier's band
 * (raised to its floor, or lowered under the next band's), so an overridden country ranks by our
 * tier and every other keeps its place by risk.
 */
function rankedRisk(risk: number, tier: string): number {
  const at = TIER_BANDS.findIndex((band) => band.tier === tier);
  if (at === -1) return risk;
  const floor = TIER_BANDS[at]!.min;
  const ceiling = at === 0 ? Infinity : TIER_BANDS[at - 1]!.min - 0.001;
  return Math.min(Math.max(risk, floor), ceiling);
}

/**
 * The 20 most exposed sites (shared/site-exposure): people × distance-weighted risk within each
 * site's rule radius, then weighted risk, then id. Every filtered site is scored, up to SITES_MAX,
 * in time slices that yield.
 */
async function riskiest(
  rows: readonly SiteRow[],
  latest: BatchCountries | null,
  overrides: ReadonlyMap<string, OverrideRow>,
) {
  // A country we override counts by our tier (rankedRisk), its sites saying so below.
  // With no risk of the provider's, an override still places the country at its tier's floor.
  const riskOf = (iso: string): number | null | undefined => {
    const risk = latest?.byIso.get(iso)?.risk;
    const override = overrides.get(iso);
    return override ? rankedRisk(risk ?? -1, override.tier) : risk;
  };
  const slice = new TimeSlice();
  const scored = [];
  for (const site of rows) {
    await slice.pause();
    const weighted = weightedRisk(
      { iso: site.iso, nearby: site.nearby, radiusKm: site.alertRadiusKm },
      riskOf,
    );
    scored.push({ site, weighted, exposure: exposureOf(site.people, weighted.risk) });
  }
  const rank = (n: number | null): number => n ?? -1;
  scored.sort(
    (a, b) =>
      rank(b.exposure) - rank(a.exposure) ||
      rank(b.weighted.risk) - rank(a.weighted.risk) ||
      a.site.id - b.site.id,
  );
  return scored.slice(0, RISKIEST_MAX).map(({ site, weighted, exposure }) => {
    const country = latest?.byIso.get(site.iso);
    const override = overrides.get(site.iso);
    return {
      ...siteBrief(site),
      risk: country?.risk ?? null,
      tier: override?.tier ?? country?.tier ?? null,
      ...(override
        ? {
            provider_tier: country?.tier ?? null,
            override: {
              tier: override.tier,
              reason: override.reason,
              expires: override.expiresAt.toISOString(),
            },
          }
        : {}),
      weighted_risk: weighted.risk,
      weighted_by:
        weighted.iso === null || weighted.km === null
          ? null
          : { iso: weighted.iso, km: weighted.km },
      exposure,
    };
  });
}
