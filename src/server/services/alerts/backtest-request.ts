import { ruleKey, type AlertRule } from '../../../shared/alerts-api.js';
import { backtestRequestSchema, type BacktestResponse } from '../../../shared/backtest-api.js';
import type { RuleBacktest } from './backtest.js';
import { ApiProblem, zodWords, type Viewer, type WatchlistService } from './watchlists.js';

/**
 * `POST /api/watchlists/backtest`: `{countries, rules}` as typed in the editor, or a saved list
 * the caller can see. Backtests run one at a time (each reads the whole history in memory).
 */
export class BacktestRequests {
  #running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly backtest: RuleBacktest,
    private readonly watchlists: WatchlistService,
  ) {}

  async run(body: unknown, viewer: Viewer): Promise<BacktestResponse> {
    const parsed = backtestRequestSchema.safeParse(body);
    if (!parsed.success) throw new ApiProblem(400, zodWords(parsed.error));
    let countries: string[];
    let rules: AlertRule[];
    if ('watchlist_id' in parsed.data) {
      const row = await this.watchlists.row(parsed.data.watchlist_id, viewer);
      ({ countries, rules } = row);
    } else {
      countries = [...new Set(parsed.data.countries.map((c) => c.trim().toUpperCase()))];
      const bad = countries.find((code) => !/^[A-Z]{3}$/.test(code));
      if (bad !== undefined) {
        throw new ApiProblem(
          400,
          `countries: ${JSON.stringify(bad.slice(0, 20))} is not an ISO 3166-1 alpha-3 code such as "MLI"`,
        );
      }
      // The same rule twice is one rule (one alert per rule, country and batch).
      rules = [...new Map(parsed.data.rules.map((rule) => [ruleKey(rule), rule])).values()];
    }
    const next = this.#running.then(
      () => this.backtest.run(countries, rules),
      () => this.backtest.run(countries, rules),
    );
    this.#running = next.catch(() => undefined);
    return next;
  }
}
