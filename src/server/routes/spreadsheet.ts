import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { countriesResponseSchema } from '../../shared/bff-api.js';
import { asOfCountriesResponseSchema } from '../../shared/batches-api.js';
import type { AsOfAnswers } from '../services/history/as-of-answers.js';
import type { Served } from '../services/rendering/render.js';
import {
  countriesCsv,
  countriesFileName,
  countryCsv,
  countryFileName,
} from '../services/exports/spreadsheet-csv.js';
import { replyAsOfFile } from './as-of.js';
import { asOfLangQuery, isoParams, tierAsOfQuery } from './params.js';
import { sheetOutputs } from './sheet-language.js';
import { NotFound } from './route-schema.js';
import type { StoreFile } from './store-reply.js';
import { zodRoute } from './route-schema.js';
import { answer, type DataRouteOptions } from './respond.js';
import { replyTeamSheet } from './team-spreadsheet.js';

const CSV_TYPE = 'text/csv; charset=utf-8';
/** Cache headers of the data the file was built from (how old it is, and whether stale). */
const PASSED_HEADERS = ['x-cache', 'age', 'x-stale-reason'];

/** The batch as the BFF serves it to the SPA (same cache, same freshness), parsed. */
function batchOf(served: Served) {
  return countriesResponseSchema.parse(JSON.parse(served.body.toString('utf8')));
}

function csvServed(served: Served, body: Buffer, fileName: string): Served {
  const headers: Record<string, string> = {
    'content-disposition': `attachment; filename="${fileName}"`,
    'cache-control': 'no-cache',
  };
  for (const name of PASSED_HEADERS) {
    const value = served.headers[name];
    if (value !== undefined) headers[name] = value;
  }
  return { status: 200, contentType: CSV_TYPE, body, headers, outcome: served.outcome };
}

/** A past batch's rows as `/api/countries?as_of=` answers them (from the store), with its id. */
async function recordedBatch(answers: AsOfAnswers, at: Date) {
  return asOfCountriesResponseSchema.parse(await answers.countries(at));
}

function csvFile(body: Buffer, fileName: string): StoreFile {
  return {
    body,
    contentType: CSV_TYPE,
    headers: { 'content-disposition': `attachment; filename="${fileName}"` },
  };
}

/** What the spreadsheet routes are given: the data's, the notes and people's languages. */
type SheetRouteOptions = DataRouteOptions & {
  /** The team's notes on a country as of a time, for its spreadsheet (issue 31). */
  notesAt?: ((iso: string, at: Date | null) => Promise<string[]>) | null;
  /** The asking person's saved language (issue 34), for the header row; null: none. */
  settingLanguageOf?: ((request: FastifyRequest) => Promise<string | null>) | null;
};

type BatchBuild = (
  batch: ReturnType<typeof batchOf>,
  batchId: string | null,
  deltas: ReadonlyMap<string, number> | null,
) => Served;
type WithBatch = (served: Served, build: BatchBuild) => Promise<Served>;

/** The latest batch's file, built with the batch's citable id and our recorded risk changes. */
function batchCiter(opts: SheetRouteOptions): WithBatch {
  return async (served, build) => {
    if (served.status !== 200) return served;
    const batch = batchOf(served);
    // Cited by its id when the store has recorded this batch (issue 22): one indexed lookup;
    // and its risk changes are ours when the batch before it is recorded too (issue 33).
    const [batchId, deltas] = await Promise.all([
      opts.asOf?.answers.batchIdAt(batch.as_of) ?? null,
      opts.asOf?.answers.recordedRiskDeltas(batch.as_of) ?? null,
    ]);
    return build(batch, batchId, deltas);
  };
}

/** `/api/spreadsheet/countries`: every country of the batch, the tier filter applied. */
function countriesSheetRoute(
  app: FastifyInstance,
  opts: SheetRouteOptions,
  withBatch: WithBatch,
): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const countriesRoute = zodRoute({ querystring: tierAsOfQuery });
  typed.get('/api/spreadsheet/countries', countriesRoute, async (request, reply) => {
    const { tiers, asOf, index, weights, lang } = request.query;
    const o = await sheetOutputs(request, reply, lang, opts.settingLanguageOf);
    if (index === 'team') {
      return replyTeamSheet(request, reply, opts, { tiers, iso: null, asOf, weights, o });
    }
    if (asOf) {
      return replyAsOfFile(request, reply, opts.asOf, asOf, async (answers) => {
        const batch = await recordedBatch(answers, asOf);
        const deltas = await answers.recordedRiskDeltas(batch.as_of);
        return csvFile(
          countriesCsv(
            batch.as_of,
            batch.countries,
            tiers,
            batch.batch_id,
            deltas,
            batch.methodology_version ?? null,
            o,
          ),
          countriesFileName(batch.as_of, tiers),
        );
      });
    }
    return answer(request, reply, opts.metrics, async () => {
      const served = await opts.data.countries(opts.guardFor(request));
      return withBatch(served, (batch, batchId, deltas) =>
        csvServed(
          served,
          countriesCsv(
            batch.as_of,
            batch.countries,
            tiers,
            batchId,
            deltas,
            batch.methodology_version ?? null,
            o,
          ),
          countriesFileName(batch.as_of, tiers),
        ),
      );
    });
  });
}

/** `/api/spreadsheet/country/:iso`: one country's categories, one row each, and our notes. */
function countrySheetRoute(
  app: FastifyInstance,
  opts: SheetRouteOptions,
  withBatch: WithBatch,
): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const notesAt = (iso: string, at: Date | null) => opts.notesAt?.(iso, at) ?? [];
  const countryRoute = zodRoute({ querystring: asOfLangQuery, params: isoParams });
  typed.get('/api/spreadsheet/country/:iso', countryRoute, async (request, reply) => {
    const { iso } = request.params;
    const { asOf, index, weights, lang } = request.query;
    const o = await sheetOutputs(request, reply, lang, opts.settingLanguageOf);
    if (index === 'team') {
      return replyTeamSheet(request, reply, opts, { tiers: [], iso, asOf, weights, o });
    }
    if (asOf) {
      return replyAsOfFile(request, reply, opts.asOf, asOf, async (answers) => {
        const batch = await recordedBatch(answers, asOf);
        const country = batch.countries.find((c) => c.iso.toUpperCase() === iso);
        if (!country) throw new NotFound(`${iso} is not in the batch of ${batch.as_of}`);
        const notes = await notesAt(iso, new Date(batch.as_of));
        return csvFile(
          countryCsv(
            batch.as_of,
            country,
            batch.batch_id,
            batch.methodology_version ?? null,
            notes,
            o,
          ),
          countryFileName(batch.as_of, iso),
        );
      });
    }
    return answer(request, reply, opts.metrics, async () => {
      const served = await opts.data.countries(opts.guardFor(request));
      const notes = await notesAt(iso, null);
      return withBatch(served, (batch, batchId) => {
        const country = batch.countries.find((c) => c.iso.toUpperCase() === iso);
        if (!country) {
          return {
            status: 404,
            contentType: 'application/json; charset=utf-8',
            body: Buffer.from(
              JSON.stringify({ ok: false, error: `Country ${iso} is not in the current data` }),
            ),
            headers: {},
            outcome: served.outcome,
          };
        }
        return csvServed(
          served,
          countryCsv(batch.as_of, country, batchId, batch.methodology_version ?? null, notes, o),
          countryFileName(batch.as_of, iso),
        );
      });
    });
  });
}

/**
 * Spreadsheet-ready CSV (services/exports/spreadsheet-csv.ts), beside the upstream's raw export:
 * `/api/spreadsheet/countries?tier=crit,high` (the overview's tier filter) and
 * `/api/spreadsheet/country/:iso` (the country page). Built from `/api/countries`' data, so they
 * cost no upstream request beyond what the dashboard already spends; with `?as_of=`, from the
 * recorded batch the page shows (the store alone), named by its id on every row.
 */
export async function spreadsheetRoutes(
  app: FastifyInstance,
  opts: SheetRouteOptions,
): Promise<void> {
  const withBatch = batchCiter(opts);
  countriesSheetRoute(app, opts, withBatch);
  countrySheetRoute(app, opts, withBatch);
}
