import { asOfCountriesResponseSchema } from '../../../shared/batches-api.js';
import type { CountrySummary } from '../../../shared/bff-api.js';
import {
  spreadsheetCell,
  spreadsheetText,
  spreadsheetTime,
} from '../../../shared/spreadsheet-cell.js';
import { tierLabel } from '../../../shared/tiers.js';
import { DAY_MS } from '../../../shared/durations.js';
import type { Database } from '../../store/connection.js';
import { teamAlertsBetween, teamListCountries } from '../../store/feed-rows.js';
import type { Range } from '../../store/series.js';
import { ApiProblem } from '../api-problem.js';
import { countriesCsv, csv } from '../exports/spreadsheet-csv.js';
import type { AsOfAnswers } from '../history/as-of-answers.js';
import type { HistoryAnswers } from '../history/history-answers.js';
import { displayName } from '../reference/display-names.js';

type RecordedBatch = ReturnType<typeof asOfCountriesResponseSchema.parse>;

/** Alerts one feed answer may hold: a period with more is refused, never cut short. */
export const FEED_ALERTS_MAX = 5000;
/** The longest period the alerts feed answers, and the one it answers by default (the last). */
export const FEED_ALERTS_MAX_DAYS = 366;
const FEED_ALERTS_DEFAULT_DAYS = 30;

/** A feed's answer in both forms: the CSV file and the JSON it carries the same rows as. */
export interface FeedAnswer {
  csv: Buffer;
  json: object;
  /** The file name a browser saves the CSV as. */
  fileName: string;
}

export const COUNTRY_HISTORY_COLUMNS = [
  'Data generated (UTC)',
  'ISO code',
  'Country',
  'Risk (0–100)',
  'Tier',
  'Static score',
  'Active score',
  'Confidence (0–100)',
] as const;

export const ALERT_COLUMNS = [
  'Batch data generated (UTC)',
  'Raised (UTC)',
  'Watchlist',
  'Country',
  'ISO code',
  'Kind',
  'Message',
  'Alert id',
] as const;

/**
 * The feeds' answers (issue 34), every one from what the BFF holds (the store's recorded batches,
 * series and alerts): a feed never spends an upstream request. CSVs are the project's
 * spreadsheet CSVs (services/exports): the same columns as the country spreadsheet, times as
 * `YYYY-MM-DD HH:MM:SS` in UTC (which Excel, Sheets and Power BI read as dates), text guarded
 * against formulas. JSON carries ISO 8601 times.
 */
export class FeedAnswers {
  constructor(
    private readonly parts: {
      db: Database;
      asOf: AsOfAnswers;
      history: HistoryAnswers;
      now: () => number;
    },
  ) {}

  /** The countries of the newest recorded batch, or of the newest at or before `asOf`. */
  async countries(asOf: Date | null): Promise<FeedAnswer> {
    const batch = await this.#batch(asOf);
    return this.#countriesAnswer(batch, batch.countries, 'countries', {});
  }

  /** A team watchlist's countries, with their numbers in the newest recorded batch. */
  async watchlistCountries(rawId: string): Promise<FeedAnswer> {
    if (!/^[1-9]\d{0,14}$/.test(rawId)) {
      throw new ApiProblem(400, 'watchlist must be a watchlist id such as 12');
    }
    const list = await teamListCountries(this.parts.db, Number(rawId));
    if (list === null) throw new ApiProblem(404, `No team watchlist with id ${rawId}`);
    const batch = await this.#batch(null);
    const wanted = new Set(list.countries.map((iso) => iso.toUpperCase()));
    const rows = batch.countries.filter((c) => wanted.has(c.iso.toUpperCase()));
    return this.#countriesAnswer(batch, rows, `watchlist-${rawId}`, {
      watchlist: { id: rawId, name: list.name, countries: list.countries },
    });
  }

  /** One country's recorded series in `range`. */
  async countryHistory(iso: string, range: Range): Promise<FeedAnswer> {
    const series = await this.parts.history.countryHistory(iso, range);
    const name = displayName(iso, series.name ?? undefined);
    const rows = series.points.map((p) => [
      spreadsheetTime(p.as_of),
      spreadsheetText(iso),
      spreadsheetText(name),
      spreadsheetCell(p.risk),
      spreadsheetText(p.tier ? tierLabel(p.tier) : ''),
      spreadsheetCell(p.static),
      spreadsheetCell(p.active),
      spreadsheetCell(p.confidence),
    ]);
    const points = series.points.map(({ categories: _categories, ...point }) => point);
    return {
      csv: csv(COUNTRY_HISTORY_COLUMNS, rows),
      json: { ok: true, iso, name, from: series.from, to: series.to, points },
      fileName: `global-risk-history-${iso}.csv`,
    };
  }

  /** Team lists' alerts whose batch is in the period (default: the last 30 days). */
  async alerts(range: Range): Promise<FeedAnswer> {
    const to = range.to ?? new Date(this.parts.now());
    const from = range.from ?? new Date(to.getTime() - FEED_ALERTS_DEFAULT_DAYS * DAY_MS);
    if (to.getTime() - from.getTime() > FEED_ALERTS_MAX_DAYS * DAY_MS) {
      throw new ApiProblem(400, `from and to may be at most ${FEED_ALERTS_MAX_DAYS} days apart`);
    }
    const found = await teamAlertsBetween(this.parts.db, { from, to, limit: FEED_ALERTS_MAX + 1 });
    if (found.length > FEED_ALERTS_MAX) {
      throw new ApiProblem(
        400,
        `The period holds more than ${FEED_ALERTS_MAX} alerts: ask for a shorter one (from, to)`,
      );
    }
    const rows = found.map((a) => [
      spreadsheetTime(a.batchAsOf.toISOString()),
      spreadsheetTime(a.createdAt.toISOString()),
      spreadsheetText(a.watchlist),
      spreadsheetText(a.country),
      spreadsheetText(a.iso),
      spreadsheetText(a.kind),
      spreadsheetText(a.message),
      spreadsheetCell(a.id),
    ]);
    const alerts = found.map((a) => ({
      id: String(a.id),
      batch_as_of: a.batchAsOf.toISOString(),
      created_at: a.createdAt.toISOString(),
      watchlist: a.watchlist,
      country: a.country,
      iso: a.iso,
      kind: a.kind,
      message: a.message,
    }));
    const period = { from: from.toISOString(), to: to.toISOString() };
    return {
      csv: csv(ALERT_COLUMNS, rows),
      json: { ok: true, ...period, alerts },
      fileName: 'global-risk-alerts.csv',
    };
  }

  async #batch(asOf: Date | null): Promise<RecordedBatch> {
    const at = asOf ?? new Date(this.parts.now());
    return asOfCountriesResponseSchema.parse(await this.parts.asOf.countries(at));
  }

  async #countriesAnswer(
    batch: RecordedBatch,
    countries: CountrySummary[],
    name: string,
    extra: object,
  ): Promise<FeedAnswer> {
    const deltas = await this.parts.asOf.recordedRiskDeltas(batch.as_of);
    const method = batch.methodology_version ?? null;
    return {
      csv: countriesCsv(batch.as_of, countries, [], batch.batch_id, deltas, method),
      json: { ...batch, ...extra, count: countries.length, countries },
      fileName: `global-risk-${name}.csv`,
    };
  }
}
