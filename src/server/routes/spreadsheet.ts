import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { countriesResponseSchema } from '../../shared/bff-api.js';
import type { Served } from '../services/rendering/render.js';
import {
  countriesCsv,
  countriesFileName,
  countryCsv,
  countryFileName,
} from '../services/exports/spreadsheet-csv.js';
import { isoParams, noQuery, tierQuery } from './params.js';
import { zodRoute } from './route-schema.js';
import { answer, type DataRouteOptions } from './respond.js';

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

/**
 * Spreadsheet-ready CSV (services/exports/spreadsheet-csv.ts), beside the upstream's raw export:
 * `/api/spreadsheet/countries?tier=crit,high` (the overview's tier filter) and
 * `/api/spreadsheet/country/:iso` (the country page). Built from `/api/countries`' data, so they
 * cost no upstream request beyond what the dashboard already spends.
 */
export async function spreadsheetRoutes(
  app: FastifyInstance,
  opts: DataRouteOptions,
): Promise<void> {
  const withBatch = async (
    served: Served,
    build: (batch: ReturnType<typeof batchOf>, batchId: string | null) => Served,
  ): Promise<Served> => {
    if (served.status !== 200) return served;
    const batch = batchOf(served);
    // Cited by its id when the store has recorded this batch (issue 22): one indexed lookup.
    const batchId = (await opts.asOf?.answers.batchIdAt(batch.as_of)) ?? null;
    return build(batch, batchId);
  };

  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get('/api/spreadsheet/countries', zodRoute({ querystring: tierQuery }), (request, reply) =>
    answer(request, reply, opts.metrics, async () => {
      const tiers = request.query;
      const served = await opts.data.countries(opts.guardFor(request));
      return withBatch(served, (batch, batchId) =>
        csvServed(
          served,
          countriesCsv(batch.as_of, batch.countries, tiers, batchId),
          countriesFileName(batch.as_of, tiers),
        ),
      );
    }),
  );

  const countryRoute = zodRoute({ querystring: noQuery, params: isoParams });
  typed.get('/api/spreadsheet/country/:iso', countryRoute, (request, reply) =>
    answer(request, reply, opts.metrics, async () => {
      const { iso } = request.params;
      const served = await opts.data.countries(opts.guardFor(request));
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
          countryCsv(batch.as_of, country, batchId),
          countryFileName(batch.as_of, iso),
        );
      });
    }),
  );
}
