import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TeamIndexNote } from '../../shared/team-index-api.js';
import type { Served } from '../services/rendering/render.js';
import { teamCountries, type TeamLens } from '../services/team-index/team-view.js';
import {
  teamCountriesCsv,
  teamFileName,
  type TeamSheetRow,
} from '../services/exports/team-spreadsheet.js';
import { replyAsOfFile } from './as-of.js';
import { answer, type DataRouteOptions } from './respond.js';
import { NotFound } from './route-schema.js';
import { teamAsOf, teamOf } from './team-reply.js';
import type { WeightsChoice } from '../services/team-index/team-view.js';
import type { Outputs } from '../../shared/i18n/outputs/translate.js';

const CSV_TYPE = 'text/csv; charset=utf-8';

interface TeamBatch {
  as_of: string;
  batch_id?: string | null;
  index: TeamIndexNote;
  countries: TeamSheetRow[];
}

/** What a spreadsheet asks: the team tier filter or one country, and the batch. */
export interface TeamSheetQuery {
  tiers: string[];
  iso: string | null;
  asOf: Date | null;
  weights: WeightsChoice | null;
  /** The header row's language (issue 34). */
  o: Outputs;
}

function sheetOf(batch: TeamBatch, query: TeamSheetQuery, batchId: string | null) {
  const rows = query.iso
    ? batch.countries.filter((row) => row.iso.toUpperCase() === query.iso)
    : batch.countries;
  if (query.iso && rows.length === 0) {
    throw new NotFound(`${query.iso} is not in the batch of ${batch.as_of}`);
  }
  return {
    body: teamCountriesCsv(batch.as_of, rows, batch.index, query.tiers, batchId, query.o),
    name: teamFileName(batch.as_of, query.iso ? [query.iso] : query.tiers),
  };
}

/**
 * `/api/spreadsheet/countries?index=team` and `/api/spreadsheet/country/:iso?index=team` (issue
 * 31): the team view of the batch as a CSV of its own columns (services/exports/
 * team-spreadsheet.ts), from the same data as the provider's spreadsheets.
 */
export function replyTeamSheet(
  request: FastifyRequest,
  reply: FastifyReply,
  opts: DataRouteOptions,
  query: TeamSheetQuery,
): Promise<FastifyReply> {
  const team = teamOf(opts.team);
  const build = (body: never, lens: TeamLens) => teamCountries(body, lens);
  const { asOf } = query;
  if (asOf) {
    return replyAsOfFile(request, reply, opts.asOf, asOf, async (answers) => {
      const batch = (await teamAsOf(
        team,
        await answers.countries(asOf),
        query.weights,
        build,
        'countries',
      )) as TeamBatch;
      const sheet = sheetOf(batch, query, batch.batch_id ?? null);
      const disposition = `attachment; filename="${sheet.name}"`;
      return {
        body: sheet.body,
        contentType: CSV_TYPE,
        headers: { 'content-disposition': disposition },
      };
    });
  }
  return answer(request, reply, opts.metrics, async (): Promise<Served> => {
    const served = await opts.data.countries(opts.guardFor(request));
    if (served.status !== 200) return served;
    const body = JSON.parse(served.body.toString('utf8')) as never;
    const batch = build(body, await team.now()) as TeamBatch;
    const batchId = (await opts.asOf?.answers.batchIdAt(batch.as_of)) ?? null;
    const sheet = sheetOf(batch, query, batchId);
    return {
      status: 200,
      contentType: CSV_TYPE,
      body: sheet.body,
      headers: {
        'content-disposition': `attachment; filename="${sheet.name}"`,
        'cache-control': 'no-cache',
      },
      outcome: served.outcome,
    };
  });
}
