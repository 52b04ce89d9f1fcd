import { randomBytes, randomUUID } from 'node:crypto';
import countryCodes from 'i18n-iso-countries';
import {
  DEFAULT_RULES,
  PERSONAL_WATCHLISTS_MAX,
  ruleKey,
  TEAM_WATCHLISTS_MAX,
  watchlistInputSchema,
  type Watchlist,
  type WatchlistInput,
} from '../../../shared/alerts-api.js';
import { countUnreadByList } from '../../store/alert-triage.js';
import { selectBatchAtOrBefore, selectCountryRows } from '../../store/batches.js';
import type { Database } from '../../store/connection.js';
import { insertDelivery } from '../../store/outbox.js';
import { selectSiteAlertList } from '../../store/sites-alerts.js';
import {
  deleteWatchlist,
  insertWatchlist,
  selectWatchlist,
  selectWatchlists,
  updateWatchlist,
  type WatchlistRow,
  type WatchlistValues,
} from '../../store/watchlists.js';
import { refusedUrl } from './address-policy.js';
import { testWebhookBody } from './alert-messages.js';
import { watchlistView } from './alert-views.js';
import { ApiProblem, editConflict, requireVersion, zodWords as wordsOf } from '../api-problem.js';

// The refusal type and If-Match parsing are shared with the other editable things (sites).
export { ApiProblem, parseIfMatch } from '../api-problem.js';

/** Who is asking: the SSO user (TRUSTED_PROXY_AUTH_HEADER) or nobody in particular. */
export type Viewer = string | null;

export interface WatchlistServiceDeps {
  db: Database;
  now: () => number;
  /** WEBHOOK_ALLOW_PRIVATE. */
  allowPrivate: boolean;
  /** True when TRUSTED_PROXY_AUTH_HEADER names the user: personal lists are possible. */
  knowsUsers: boolean;
  /** Wakes the outbox after "send test" queued a message or a saved list's webhook resumed. */
  onQueued: () => void;
}

/** The first problem zod found in a watchlist body, as `path: message`. */
export function zodWords(error: Parameters<typeof wordsOf>[0]): string {
  return wordsOf(error, 'The body is not a valid watchlist');
}

/** A new `whsec_` secret: 32 random bytes, base64, as Standard Webhooks specifies. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * Watchlists: validation in plain words, visibility (team lists for everyone, personal lists for
 * their owner only), concurrency by version (ETag / If-Match), the webhook secret shown once.
 */
export class WatchlistService {
  readonly #isoCodes: ReadonlySet<string> = new Set(Object.keys(countryCodes.getAlpha3Codes()));

  constructor(private readonly deps: WatchlistServiceDeps) {}

  /** The lists `viewer` sees, each with the alerts unread by them (their own read state). */
  async list(viewer: Viewer): Promise<Watchlist[]> {
    const rows = await selectWatchlists(this.deps.db, viewer);
    const unread = await countUnreadByList(
      this.deps.db,
      rows.map((r) => r.id),
      viewer,
    );
    const siteList = (await selectSiteAlertList(this.deps.db))?.id;
    return rows.map((r) => watchlistView(r, unread.get(r.id) ?? 0, siteList));
  }

  /** The row, or a 404 that does not tell someone else's personal list from a missing one. */
  async row(rawId: string, viewer: Viewer): Promise<WatchlistRow> {
    if (!/^[1-9]\d{0,14}$/.test(rawId)) {
      throw new ApiProblem(400, 'The watchlist id must be a positive whole number');
    }
    const row = await selectWatchlist(this.deps.db, Number(rawId), viewer);
    if (!row) throw new ApiProblem(404, `No watchlist with id ${rawId}`);
    return row;
  }

  /** One list as `viewer` sees it: the unread count is theirs, as in the inbox. */
  async view(row: WatchlistRow, viewer: Viewer): Promise<Watchlist> {
    const unread = await countUnreadByList(this.deps.db, [row.id], viewer);
    const siteList = (await selectSiteAlertList(this.deps.db))?.id;
    return watchlistView(row, unread.get(row.id) ?? 0, siteList);
  }

  async create(
    body: unknown,
    viewer: Viewer,
  ): Promise<{ row: WatchlistRow; secret: string | null }> {
    const input = this.#parse(body);
    // A personal list nobody owns would be a team list: refused, never stored as something else.
    if (input.scope === 'user' && viewer === null) {
      throw new ApiProblem(
        400,
        'scope "user" needs a person signed in through the SSO proxy; this request names nobody',
      );
    }
    await this.#checkCountries(input.countries);
    const secret = input.webhook_url ? newWebhookSecret() : null;
    const values = this.#values(input, viewer);
    const personal = values.owner !== null;
    const limit = personal ? PERSONAL_WATCHLISTS_MAX : TEAM_WATCHLISTS_MAX;
    const row = await insertWatchlist(this.deps.db, { ...values, webhookSecret: secret }, limit);
    if (!row) {
      throw new ApiProblem(
        409,
        personal
          ? `You already have ${limit} personal watchlists, the most one person may have: delete one before creating another`
          : `The team already has ${limit} watchlists, the most a team may have: delete one before creating another`,
      );
    }
    return { row, secret };
  }

  async update(
    rawId: string,
    ifMatch: string | undefined,
    body: unknown,
    viewer: Viewer,
  ): Promise<{ row: WatchlistRow; secret: string | null }> {
    const current = await this.row(rawId, viewer);
    const version = this.#precondition(ifMatch, current);
    // The site alerts' list has no countries or rules to edit: it is set up where sites are.
    if ((await selectSiteAlertList(this.deps.db))?.id === current.id) {
      throw new ApiProblem(
        409,
        'This is the "Our sites" list of site alerts: set its webhook and e-mail with PUT /api/sites/alert-delivery',
      );
    }
    const input = this.#parse(body);
    // A list keeps its scope: moving a personal list to the team (or back) is a new list, so a
    // scope that differs is refused rather than silently dropped.
    const scope = current.owner === null ? 'team' : 'user';
    if (input.scope !== undefined && input.scope !== scope) {
      throw new ApiProblem(
        400,
        `scope: this is a ${scope} list and stays one; create a new list with scope "${input.scope}" instead`,
      );
    }
    await this.#checkCountries(input.countries);
    // A webhook keeps its secret across edits; a list that gets its first webhook gets one.
    const secret = input.webhook_url ? (current.webhookSecret ?? newWebhookSecret()) : null;
    const fresh = secret !== null && current.webhookSecret === null;
    const row = await updateWatchlist(
      this.deps.db,
      current.id,
      version,
      {
        ...this.#values(input, viewer, current.owner),
        // Left out of an edit: the language stays as saved.
        language: input.language ?? current.language,
        webhookSecret: secret,
      },
      viewer,
    );
    if (!row) throw this.#conflict();
    // Saving lifts a webhook pause: what waited for it is due again.
    if (current.webhookPausedAt) this.deps.onQueued();
    return { row, secret: fresh ? secret : null };
  }

  async remove(rawId: string, ifMatch: string | undefined, viewer: Viewer): Promise<void> {
    const current = await this.row(rawId, viewer);
    const version = this.#precondition(ifMatch, current);
    if (!(await deleteWatchlist(this.deps.db, current.id, version, viewer))) throw this.#conflict();
  }

  /** Queues a test message to the list's webhook (through the outbox: logged like the rest). */
  async sendTest(rawId: string, viewer: Viewer): Promise<string> {
    const row = await this.row(rawId, viewer);
    if (!row.webhookUrl) throw new ApiProblem(400, 'This watchlist has no webhook_url to test');
    const now = new Date(this.deps.now());
    const messageId = `msg_${randomUUID().replace(/-/g, '')}`;
    await insertDelivery(this.deps.db, {
      messageId,
      watchlistId: row.id,
      channel: 'webhook',
      body: testWebhookBody(
        row.webhookFormat,
        { id: String(row.id), name: row.name },
        now,
        row.language,
      ),
      state: 'pending',
      nextAttemptAt: now,
      createdAt: now,
    });
    this.deps.onQueued();
    return messageId;
  }

  #precondition(ifMatch: string | undefined, current: WatchlistRow): number {
    return requireVersion(ifMatch, current.version, 'watchlist');
  }

  #conflict(): ApiProblem {
    return editConflict('watchlist');
  }

  #parse(body: unknown): WatchlistInput {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new ApiProblem(400, 'The body must be a JSON object with name and countries');
    }
    const parsed = watchlistInputSchema.safeParse(body);
    if (!parsed.success) throw new ApiProblem(400, zodWords(parsed.error));
    const input = parsed.data;
    const codes = input.countries.map((c) => c.trim().toUpperCase());
    const seen = new Set<string>();
    for (const code of codes) {
      if (!/^[A-Z]{3}$/.test(code)) {
        throw new ApiProblem(
          400,
          `countries: ${JSON.stringify(code.slice(0, 20))} is not an ISO 3166-1 alpha-3 code such as "MLI"`,
        );
      }
      if (seen.has(code)) throw new ApiProblem(400, `countries: ${code} is listed twice`);
      seen.add(code);
    }
    const keys = new Set<string>();
    for (const rule of input.rules ?? []) {
      const key = ruleKey(rule);
      if (keys.has(key)) throw new ApiProblem(400, `rules: the rule ${key} is listed twice`);
      keys.add(key);
    }
    if (input.webhook_url) {
      const refused = refusedUrl(input.webhook_url, this.deps.allowPrivate);
      if (refused) throw new ApiProblem(400, refused);
    }
    if (input.scope === 'user' && !this.deps.knowsUsers) {
      throw new ApiProblem(
        400,
        'scope "user" needs sign-in through the SSO proxy (TRUSTED_PROXY_AUTH_HEADER); without it every list is a team list',
      );
    }
    return { ...input, countries: codes };
  }

  /** Known ISO codes, plus any code of the newest recorded batch (the upstream may use XKX). */
  async #checkCountries(codes: string[]): Promise<void> {
    const unknown = codes.filter((c) => !this.#isoCodes.has(c));
    if (unknown.length === 0) return;
    const latest = await selectBatchAtOrBefore(this.deps.db, null);
    const inData = new Set(
      latest ? (await selectCountryRows(this.deps.db, latest.id)).map((r) => r.iso) : [],
    );
    const still = unknown.filter((c) => !inData.has(c));
    if (still.length > 0) {
      throw new ApiProblem(
        400,
        `countries: ${still.slice(0, 5).join(', ')} is not a known country code`,
      );
    }
  }

  #values(
    input: WatchlistInput,
    viewer: Viewer,
    owner?: string | null,
  ): Omit<WatchlistValues, 'webhookSecret'> {
    return {
      name: input.name,
      countries: input.countries,
      rules: input.rules ?? DEFAULT_RULES,
      // An edit keeps the owner; a new personal list belongs to whoever made it.
      owner: owner !== undefined ? owner : input.scope === 'user' ? viewer : null,
      webhookUrl: input.webhook_url ?? null,
      webhookFormat: input.webhook_format ?? 'standard',
      language: input.language ?? 'en',
      email: input.email ?? null,
    };
  }
}
