import countryCodes from 'i18n-iso-countries';
import {
  DEFAULT_SITE_ALERT,
  SITES_MAX,
  siteInputSchema,
  type ImportResponse,
  type ImportedRow,
  type RejectedRow,
  type SiteInput,
} from '../../../shared/sites-api.js';
import type { HistoryStore } from '../../store/history-store.js';
import {
  countSites,
  deleteSite,
  insertSite,
  selectAllSites,
  selectSite,
  selectSitesByRef,
  selectSitesRevision,
  updateSite,
  upsertSites,
  type SiteRow,
  type SiteValues,
} from '../../store/sites.js';
import { ApiProblem, editConflict, requireVersion, zodWords } from '../api-problem.js';
import { BatchCountriesMemo } from './current-batch.js';
import { formulaProblem } from '../../../shared/spreadsheet-cell.js';
import { jsonRows, type RawRow } from './import-rows.js';
import { TimeSlice } from '../../work/time-slice.js';
import { ensureSiteAlertList } from '../../store/sites-alerts.js';
import { SitePlacer } from './placement.js';

/** The fields an import compares: equal ones make a row "unchanged" (nothing written). */
function sameSite(a: SiteValues, b: SiteRow): boolean {
  return (
    a.name === b.name &&
    a.kind === b.kind &&
    a.lat === b.lat &&
    a.lng === b.lng &&
    a.iso === b.iso.trim() &&
    a.placedBy === b.placedBy &&
    a.people === b.people &&
    a.value === b.value &&
    a.currency === b.currency &&
    JSON.stringify(a.tags) === JSON.stringify(b.tags) &&
    a.tripFrom === b.tripFrom &&
    a.tripTo === b.tripTo &&
    a.alertOn === b.alertOn &&
    a.alertRadiusKm === b.alertRadiusKm &&
    a.alertMinDelta === b.alertMinDelta
  );
}

/**
 * An import row whose site changed after it was read (`read`: its version then, null when it had
 * no site; `now`: its version now, null when there is none): nothing of the row is stored.
 */
function editedSince(ref: string, read: number | null, now: number | null): string {
  const site = `site ${JSON.stringify(ref.slice(0, 40))}`;
  const then = read === null ? 'did not exist when it was read' : `was read at version ${read}`;
  const since =
    now === null
      ? 'has been deleted since'
      : read === null
        ? `has been created since (version ${now})`
        : `has been edited since (version ${now} now)`;
  return `${site} ${then} and ${since}: this row was not stored, so that change is not overwritten; read the site again and import it again`;
}

/** zod's first problem in words; a message that names its own path (`alert.on must be …`) once. */
function siteWords(error: Parameters<typeof zodWords>[0]): string {
  return zodWords(error, 'not a valid site').replace(/^(alert\.\w+): \1 /, '$1 ');
}

export interface SiteServiceDeps {
  store: HistoryStore;
  placer?: SitePlacer;
}

/**
 * Sites: validation in plain words, placement from the country shapes, imports matched by ref in
 * one transaction, concurrency by version (ETag / If-Match). Every site is the team's. Site
 * contents are never logged: refusals name the row and the field, not what it holds beyond a
 * short quote of a refused value.
 */
export class SiteService {
  readonly placer: SitePlacer;
  readonly batches: BatchCountriesMemo;
  readonly #isoCodes: ReadonlySet<string> = new Set([
    ...Object.keys(countryCodes.getAlpha3Codes()),
    'XKX',
  ]);
  #held: { revision: number; rows: Promise<SiteRow[]> } | null = null;

  constructor(private readonly deps: SiteServiceDeps) {
    this.placer = deps.placer ?? new SitePlacer();
    this.batches = new BatchCountriesMemo(deps.store);
  }

  get #db() {
    return this.deps.store.db;
  }

  /** Every site, read again only when a write (here or in another replica) raised the revision. */
  async all(): Promise<{ revision: number; rows: SiteRow[] }> {
    const revision = await selectSitesRevision(this.#db);
    if (this.#held?.revision !== revision) {
      const rows = selectAllSites(this.#db);
      this.#held = { revision, rows };
      rows.catch(() => {
        if (this.#held?.rows === rows) this.#held = null;
      });
    }
    return { revision, rows: await this.#held.rows };
  }

  /** The row, or a 404 in words. */
  async row(rawId: string): Promise<SiteRow> {
    if (!/^[1-9]\d{0,14}$/.test(rawId)) {
      throw new ApiProblem(400, 'The site id must be a positive whole number');
    }
    const row = await selectSite(this.#db, Number(rawId));
    if (!row) throw new ApiProblem(404, `No site with id ${rawId}`);
    return row;
  }

  /**
   * One new site (`POST /api/sites`): validated and placed as an import row is, refused with a
   * 409 when its ref is another site's (never replacing it) or the sites are at their limit.
   */
  async create(body: unknown): Promise<SiteRow> {
    this.#object(body);
    // Read as one row of a JSON import: the same synonyms, formula refusal and number reading.
    const [raw] = jsonRows([body]);
    if (raw?.problem) throw new ApiProblem(400, raw.problem);
    const values = this.#parse(raw?.fields);
    const row = await insertSite(this.#db, values, SITES_MAX);
    if (typeof row === 'object') await ensureSiteAlertList(this.#db);
    if (row === 'taken') throw new ApiProblem(409, 'ref: another site already has this ref');
    if (row === 'full') {
      throw new ApiProblem(
        409,
        `There are already ${SITES_MAX} sites, the most there may be: delete some first. Nothing was stored`,
      );
    }
    return row;
  }

  /** A JSON body → the values stored (validated and placed), or a 400 in words. */
  #parse(body: unknown): SiteValues {
    this.#object(body);
    const parsed = siteInputSchema.safeParse(body);
    if (!parsed.success) throw new ApiProblem(400, siteWords(parsed.error));
    const values = this.#values(parsed.data);
    if (typeof values === 'string') throw new ApiProblem(400, values);
    return values;
  }

  /**
   * An edit takes plain values only, as an import and a new site do: a text (or a tag) that a
   * spreadsheet would run as a formula is refused, so no CSV we write later carries it out.
   */
  #refuseFormulas(body: unknown): void {
    this.#object(body);
    for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
      const texts = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
      for (const text of texts) {
        const problem = typeof text === 'string' ? formulaProblem(key, text.trim()) : null;
        if (problem) throw new ApiProblem(400, problem);
      }
    }
  }

  #object(body: unknown): void {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new ApiProblem(400, 'The body must be a JSON object with ref, name, kind, lat and lng');
    }
  }

  async update(rawId: string, ifMatch: string | undefined, body: unknown): Promise<SiteRow> {
    const current = await this.row(rawId);
    const version = this.#precondition(ifMatch, current);
    this.#refuseFormulas(body);
    const values = this.#parse(body);
    const row = await updateSite(this.#db, current.id, version, values).catch((error: unknown) => {
      // A ref another site has: the unique index (sites_ref_key) refuses it.
      if ((error as { cause?: { code?: string } }).cause?.code === '23505') {
        throw new ApiProblem(409, 'ref: another site already has this ref');
      }
      throw error;
    });
    if (!row) throw this.#conflict();
    return row;
  }

  async remove(rawId: string, ifMatch: string | undefined): Promise<void> {
    const current = await this.row(rawId);
    const version = this.#precondition(ifMatch, current);
    if (!(await deleteSite(this.#db, current.id, version))) throw this.#conflict();
  }

  /**
   * An import: every row validated and placed, matched by ref to the stored sites, then the new
   * and changed ones written in one transaction (none in a dry run). Bad rows are listed with
   * their row number and reason; they never stop the good ones.
   */
  async import(raw: RawRow[], dryRun: boolean): Promise<ImportResponse> {
    const refs = raw.flatMap((item) =>
      typeof item.fields.ref === 'string' ? [item.fields.ref.trim()] : [],
    );
    const stored = new Map(
      (await selectSitesByRef(this.#db, [...new Set(refs)])).map((row) => [row.ref, row]),
    );
    // Up to 20,000 rows checked and placed on the map: yields every slice (issue 29).
    const slice = new TimeSlice();
    const { good, rejected } = await this.#checkRows(raw, stored, slice);
    const { created, updated, writes, unchanged } = await planWrites(good, stored, slice);
    const have = await countSites(this.#db);
    let total = have + created.length;
    if (total > SITES_MAX) throw this.#full(have, created.length);
    let moved = new Map<string, number | null>();
    if (!dryRun && writes.length > 0) {
      // Each write is checked against the version read above, inside the write's transaction:
      // an edit made while this import ran is reported on its row, never overwritten.
      const expected = new Map(writes.map((w) => [w.ref, stored.get(w.ref)?.version ?? null]));
      const written = await upsertSites(this.#db, writes, SITES_MAX, expected);
      if (!written) throw this.#full(have, created.length);
      total = written.total;
      moved = written.moved;
      for (const item of created) item.id = written.ids.get(item.ref) ?? null;
      // Where site alerts go exists once sites do (issue 33, point 12).
      if (written.total > 0) await ensureSiteAlertList(this.#db);
    }
    const kept = (item: ImportedRow): boolean => !moved.has(item.ref);
    for (const item of [...created, ...updated].filter((i) => !kept(i))) {
      const read = stored.get(item.ref)?.version ?? null;
      rejected.push({
        row: item.row,
        ref: item.ref.slice(0, 100),
        reason: editedSince(item.ref, read, moved.get(item.ref) ?? null),
      });
    }
    rejected.sort((a, b) => a.row - b.row);
    return {
      ok: true,
      dry_run: dryRun,
      rows: raw.length,
      created: created.filter(kept),
      updated: updated.filter(kept),
      unchanged,
      rejected,
      total,
    };
  }

  /** Every row validated and placed; a bad row is listed with its reason, never stops others. */
  async #checkRows(
    raw: RawRow[],
    stored: Map<string, SiteRow>,
    slice: TimeSlice,
  ): Promise<{ good: CheckedRow[]; rejected: RejectedRow[] }> {
    const rejected: RejectedRow[] = [];
    const good: CheckedRow[] = [];
    const firstRow = new Map<string, number>();
    for (const item of raw) {
      await slice.pause();
      const values = this.#checkRow(item, stored, firstRow);
      if (typeof values === 'string') {
        const ref = typeof item.fields.ref === 'string' ? item.fields.ref.trim() : null;
        rejected.push({ row: item.row, ref: ref?.slice(0, 100) ?? null, reason: values });
        continue;
      }
      firstRow.set(values.ref, item.row);
      good.push({ row: item.row, values });
    }
    return { good, rejected };
  }

  /** One import row → the values to store, or why it cannot be imported. */
  #checkRow(
    item: RawRow,
    stored: Map<string, SiteRow>,
    firstRow: Map<string, number>,
  ): SiteValues | string {
    if (item.problem !== null) return item.problem;
    // The site's version when it was read (GET /api/sites, an export): optional; a row that
    // names one replaces the site only if it is still at that version.
    const { version: read, ...fields } = item.fields;
    if (read !== undefined && !(Number.isInteger(read) && (read as number) >= 1)) {
      return "version must be a whole number from 1 (the site's version when it was read)";
    }
    const parsed = siteInputSchema.safeParse(fields);
    if (!parsed.success) return siteWords(parsed.error);
    const earlier = firstRow.get(parsed.data.ref);
    if (earlier !== undefined) {
      return `ref ${JSON.stringify(parsed.data.ref.slice(0, 40))} is already on row ${earlier}`;
    }
    const current = stored.get(parsed.data.ref);
    if (read !== undefined && (current?.version ?? null) !== read) {
      return editedSince(parsed.data.ref, read as number, current?.version ?? null);
    }
    return this.#values(parsed.data, current);
  }

  /** Validated input → the values stored, placed on the map; or the reason it cannot be. */
  #values(input: SiteInput, stored?: SiteRow): SiteValues | string {
    const given = input.iso ?? null;
    if (given !== null && !this.#isoCodes.has(given)) {
      return `iso: ${given} is not an ISO 3166-1 alpha-3 country code`;
    }
    // A site at the same point with the same country given (or none) keeps its placement: a
    // re-import does not place 20,000 points again to find them unchanged.
    const samePlace =
      stored !== undefined &&
      stored.lat === input.lat &&
      stored.lng === input.lng &&
      (given === null
        ? stored.placedBy !== 'given'
        : stored.placedBy === 'given' && stored.iso === given);
    const placed = samePlace
      ? { ok: true as const, iso: stored.iso, placedBy: stored.placedBy, nearby: stored.nearby }
      : this.placer.place(input.lat, input.lng, given);
    if (!placed.ok) return placed.reason;
    return {
      ref: input.ref,
      name: input.name,
      kind: input.kind,
      lat: input.lat,
      lng: input.lng,
      iso: placed.iso,
      placedBy: placed.placedBy,
      people: input.people ?? null,
      value: input.value ?? null,
      currency: input.currency ?? null,
      tags: input.tags ?? [],
      tripFrom: input.from ?? null,
      tripTo: input.to ?? null,
      nearby: placed.nearby,
      // Left out: the default rule (on, 100 km, 10 points); PUT replaces it like the rest.
      alertOn: (input.alert ?? DEFAULT_SITE_ALERT).on,
      alertRadiusKm: (input.alert ?? DEFAULT_SITE_ALERT).radius_km,
      alertMinDelta: (input.alert ?? DEFAULT_SITE_ALERT).min_delta,
    };
  }

  #full(have: number, adding: number): ApiProblem {
    return new ApiProblem(
      409,
      `This import would make ${have + adding} sites; the most there may be is ${SITES_MAX} (${have} stored, ${adding} new): delete some or import fewer. Nothing was stored`,
    );
  }

  #precondition(ifMatch: string | undefined, current: SiteRow): number {
    return requireVersion(ifMatch, current.version, 'site');
  }

  #conflict(): ApiProblem {
    return editConflict('site');
  }
}

interface CheckedRow {
  row: number;
  values: SiteValues;
}

/** The checked rows sorted into new, changed and unchanged sites, and the writes they need. */
async function planWrites(
  good: CheckedRow[],
  stored: Map<string, SiteRow>,
  slice: TimeSlice,
): Promise<{
  created: ImportedRow[];
  updated: ImportedRow[];
  writes: SiteValues[];
  unchanged: number;
}> {
  const created: ImportedRow[] = [];
  const updated: ImportedRow[] = [];
  const writes: SiteValues[] = [];
  let unchanged = 0;
  for (const { row, values } of good) {
    await slice.pause();
    const before = stored.get(values.ref);
    if (before && sameSite(values, before)) {
      unchanged += 1;
      continue;
    }
    writes.push(values);
    const shown = {
      row,
      ref: values.ref,
      id: before?.id ?? null,
      iso: values.iso,
      placed_by: values.placedBy,
    };
    (before ? updated : created).push(shown);
  }
  return { created, updated, writes, unchanged };
}
