import { ruleKey, type AlertRule } from '../../../shared/alerts-api.js';
import { backtestRequestSchema, type BacktestResponse } from '../../../shared/backtest-api.js';
import type { RuleBacktest } from './backtest.js';
import { RevisionMemo } from '../history/revision-memo.js';

/** Backtest answers held at once: a few people's lists, tried again as they edit them. */
const BACKTEST_MEMO = { maxEntries: 64, maxBytes: 32 * 1024 * 1024 };
import { ApiProblem, zodWords, type Viewer, type WatchlistService } from './watchlists.js';

/**
 * `POST /api/watchlists/backtest`: `{countries, rules}` as typed in the editor, or a saved list
 * the caller can see. Backtests run one at a time (each reads the whole history in memory).
 */
export class BacktestRequests {
  #running: Promise<unknown> = Promise.resolve();
  /**
   * Answers by countries and rules, for one store revision (a backtest reads only recorded
   * batches and archived events, so nothing else changes it): the same list tried again, by
   * anyone, until the next batch costs nothing. Bounded; dies with this object (its app).
   */
  readonly #answers = new RevisionMemo<BacktestResponse>(BACKTEST_MEMO);

  constructor(
    private readonly backtest: RuleBacktest,
    private readonly watchlists: WatchlistService,
    /** The store's revision: changes with every batch recorded or event archived. */
    private readonly revision: () => number = () => 0,
    /** The newest version of the team index weights (0: none). */
    private readonly weightsVersion: () => Promise<number> = async () => 0,
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
    // In the order asked: the answer lists countries and rules in that order.
    // A team index rule's answer also changes with the weights (issue 31).
    const weights = rules.some((rule) => rule.kind === 'team_index_threshold')
      ? await this.weightsVersion()
      : 0;
    const key = JSON.stringify([countries, rules.map(ruleKey), weights]);
    return this.#answers.get(
      this.revision(),
      key,
      async () => undefined,
      async () => {
        const next = this.#running.then(
          () => this.backtest.run(countries, rules),
          () => this.backtest.run(countries, rules),
        );
        this.#running = next.catch(() => undefined);
        const value = await next;
        // Sized by its countries and rules (what its JSON grows with), not by serialising it.
        return { value, chars: 512 + value.countries.length * value.rules.length * 256 };
      },
    );
  }
}
