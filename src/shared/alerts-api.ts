import { z } from 'zod/mini';
import { cursorPageShape } from './schemas/common.js';
import { LANGUAGES } from './i18n/languages.js';
import { userTextProblem } from './user-text.js';

/**
 * Watchlists and alerts (issue 8): the bodies of `/api/watchlists*` and `/api/alerts*`, shared by
 * the BFF (which validates requests and builds answers with them) and the SPA. Times are ISO 8601.
 */

export const WATCHLIST_NAME_MAX = 80;
/*
 * What a watchlist may hold and how many there may be: every batch evaluates every rule of every
 * list for each of its countries, so these bound the work and the alerts of one batch (a list
 * raises at most 100 × 20 = 2,000 alerts a batch). docs/api.md (Watchlist and alert API) states
 * them.
 */
export const WATCHLIST_COUNTRIES_MAX = 100;
export const WATCHLIST_RULES_MAX = 20;
/** Team lists (scope "team", everyone's), in all. */
export const TEAM_WATCHLISTS_MAX = 500;
/** Personal lists (scope "user") of one signed-in person. */
export const PERSONAL_WATCHLISTS_MAX = 50;
/** The API document's vendor e-mail threshold: |Δ active| ≥ 10 between two batches. */
export const DEFAULT_ACTIVE_DELTA = 10;

const direction = z.enum(['up', 'down', 'both'], {
  error: 'direction must be "up", "down" or "both"',
});

export const alertRuleSchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({
      kind: z.literal('active_change'),
      min_abs_delta: z
        .number({ error: 'min_abs_delta must be a number' })
        .check(
          z.gte(0.1, 'min_abs_delta must be at least 0.1'),
          z.lte(100, 'min_abs_delta must be at most 100'),
        ),
    }),
    z.strictObject({ kind: z.literal('tier_change'), direction }),
    z.strictObject({
      kind: z.literal('risk_threshold'),
      threshold: z
        .number({ error: 'threshold must be a number' })
        .check(
          z.gte(0, 'threshold must be from 0 to 100'),
          z.lte(100, 'threshold must be from 0 to 100'),
        ),
      direction,
    }),
    z.strictObject({ kind: z.literal('breaking_event') }),
    // Issue 31: the team index (weights an admin sets) crossing a level between two batches.
    z.strictObject({
      kind: z.literal('team_index_threshold'),
      threshold: z
        .number({ error: 'threshold must be a number' })
        .check(
          z.gte(0, 'threshold must be from 0 to 100'),
          z.lte(100, 'threshold must be from 0 to 100'),
        ),
      direction,
    }),
  ],
  {
    error:
      'each rule needs a kind: "active_change", "tier_change", "risk_threshold", "breaking_event" or "team_index_threshold"',
  },
);
export type AlertRule = z.infer<typeof alertRuleSchema>;
export type AlertKind = AlertRule['kind'];

/**
 * What an alert is about: a rule's kind, or `method_change`, the one notice a list gets when
 * the provider changes its method and its rules comparing two batches are held (issue 31), or
 * `override_expired`, the inbox notice a list gets when our override of one of its countries
 * ends at its expiry.
 */
export const ALERT_KINDS = [
  'active_change',
  'tier_change',
  'risk_threshold',
  'breaking_event',
  'method_change',
  'team_index_threshold',
  'override_expired',
] as const;
export type AlertRowKind = (typeof ALERT_KINDS)[number];
/**
 * The method notice's `iso`: from ISO 3166's user-assigned range (XAA–XZZ), so no country has
 * it; the notice is about the list's countries together.
 */
export const METHOD_NOTICE_ISO = 'XMC';

export const DEFAULT_RULES: AlertRule[] = [
  { kind: 'active_change', min_abs_delta: DEFAULT_ACTIVE_DELTA },
];

/**
 * A rule's identity: the same rule (same kind and values) is the same key after any edit of the
 * list, so "at most one alert per rule, country and batch" holds across edits too.
 */
export function ruleKey(rule: AlertRule): string {
  switch (rule.kind) {
    case 'active_change':
      return `active_change:${rule.min_abs_delta}`;
    case 'tier_change':
      return `tier_change:${rule.direction}`;
    case 'risk_threshold':
      return `risk_threshold:${rule.threshold}:${rule.direction}`;
    case 'breaking_event':
      return 'breaking_event';
    case 'team_index_threshold':
      return `team_index_threshold:${rule.threshold}:${rule.direction}`;
  }
}

/**
 * Every webhook format, in the order pickers offer them: the one list that the API's schema, the
 * server's dispatch (`Record<WebhookFormat, …>` there) and every picker and label read, so a new
 * format cannot go missing from one of them. Payloads: docs/webhooks.md.
 */
export const WEBHOOK_FORMAT_OPTIONS = [
  {
    id: 'standard',
    label: 'JSON (Standard Webhooks)',
    description: 'Signed JSON with the documented payload, for your own receiver.',
  },
  {
    id: 'slack',
    label: 'Slack',
    description: 'A Slack incoming webhook: one line of text per alert.',
  },
  {
    id: 'teams',
    label: 'Microsoft Teams (Workflows)',
    description: 'A Teams Workflows webhook: an Adaptive Card per alert.',
  },
] as const;

type FormatIds<T> = { -readonly [K in keyof T]: T[K] extends { id: infer I } ? I : never };

/** The format ids as a tuple, as `z.enum` wants them. */
export const WEBHOOK_FORMATS = WEBHOOK_FORMAT_OPTIONS.map((f) => f.id) as FormatIds<
  typeof WEBHOOK_FORMAT_OPTIONS
>;
export type WebhookFormat = (typeof WEBHOOK_FORMAT_OPTIONS)[number]['id'];
export type WebhookFormatOption = (typeof WEBHOOK_FORMAT_OPTIONS)[number];

/** The picker's words for a format: "Microsoft Teams (Workflows)". */
export function webhookFormatLabel(format: WebhookFormat): string {
  return WEBHOOK_FORMAT_OPTIONS.find((f) => f.id === format)?.label ?? format;
}

/** `"standard", "slack" or "teams"`: the formats as the API's refusals name them. */
const FORMAT_WORDS = WEBHOOK_FORMATS.map((f) => `"${f}"`)
  .join(', ')
  .replace(/, ([^,]*)$/, ' or $1');

/** `POST /api/watchlists` and `PUT /api/watchlists/:id` (PUT replaces the whole list). */
export const watchlistInputSchema = z.strictObject({
  name: z.string({ error: 'name is required (1 to 80 characters)' }).check(
    z.trim(),
    z.minLength(1, 'name must not be empty'),
    z.maxLength(WATCHLIST_NAME_MAX, `name must be at most ${WATCHLIST_NAME_MAX} characters`),
    z.superRefine((name, ctx) => {
      const problem = userTextProblem('name', name);
      if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
    }),
  ),
  countries: z
    .array(z.string({ error: 'countries must be ISO 3166-1 alpha-3 codes such as "MLI"' }), {
      error: 'countries must be a list of ISO codes such as ["MLI", "NER"]',
    })
    .check(
      z.minLength(1, 'countries must list at least one country'),
      z.maxLength(
        WATCHLIST_COUNTRIES_MAX,
        `a watchlist may list at most ${WATCHLIST_COUNTRIES_MAX} countries`,
      ),
    ),
  rules: z.optional(
    z
      .array(alertRuleSchema, { error: 'rules must be a list of alert rules' })
      .check(
        z.maxLength(
          WATCHLIST_RULES_MAX,
          `a watchlist may have at most ${WATCHLIST_RULES_MAX} rules`,
        ),
      ),
  ),
  /** `team` (everyone) or `user` (only the signed-in person; needs the SSO proxy). */
  scope: z.optional(z.enum(['team', 'user'], { error: 'scope must be "team" or "user"' })),
  webhook_url: z.optional(
    z.nullable(z.string({ error: 'webhook_url must be a URL' }).check(z.maxLength(2000))),
  ),
  webhook_format: z.optional(
    z.enum(WEBHOOK_FORMATS, { error: `webhook_format must be ${FORMAT_WORDS}` }),
  ),
  email: z.optional(
    z.nullable(
      z
        .email({ error: 'email must be an e-mail address such as analyst@example.com' })
        .check(z.maxLength(254)),
    ),
  ),
  /**
   * The language of the list's e-mails and webhook texts (issue 34). Left out: English for a new
   * list, kept as saved by an edit.
   */
  language: z.optional(
    z.enum(LANGUAGES, { error: `language must be one of ${LANGUAGES.join(', ')}` }),
  ),
});
export type WatchlistInput = z.infer<typeof watchlistInputSchema>;

export const webhookSummarySchema = z.looseObject({
  url: z.string(),
  format: z.enum(WEBHOOK_FORMATS),
  /** Set when deliveries failed for 3 days: nothing is sent until the list is saved again. */
  paused_at: z.nullable(z.string()),
  paused_reason: z.nullable(z.string()),
});

export const watchlistSchema = z.looseObject({
  id: z.string(),
  /** The "Our sites" list: the site rule's alerts, not rules of its own (absent: false). */
  site_alerts: z.optional(z.boolean()),
  name: z.string(),
  countries: z.array(z.string()),
  rules: z.array(alertRuleSchema),
  scope: z.enum(['team', 'user']),
  owner: z.nullable(z.string()),
  webhook: z.nullable(webhookSummarySchema),
  email: z.nullable(z.string()),
  /** The language of its e-mails and webhook texts (issue 34); absent from older servers: en. */
  language: z.optional(z.catch(z.enum(LANGUAGES), 'en')),
  /** Increases with every change; the ETag is `"<version>"`. */
  version: z.int(),
  created_at: z.string(),
  updated_at: z.string(),
  unread_alerts: z.int(),
});
export type Watchlist = z.infer<typeof watchlistSchema>;

export const watchlistResponseSchema = z.looseObject({
  ok: z.literal(true),
  watchlist: watchlistSchema,
  /** Only in the answer that created the webhook: never shown again. */
  webhook_secret: z.optional(z.string()),
});

export const watchlistListResponseSchema = z.looseObject({
  ok: z.literal(true),
  watchlists: z.array(watchlistSchema),
});

/** One country's numbers in one batch, as an alert quotes them. */
export const alertNumbersSchema = z.looseObject({
  as_of: z.string(),
  risk: z.nullable(z.number()),
  tier: z.nullable(z.string()),
  active: z.nullable(z.number()),
  /** The team index with the weights in force at the batch (issue 31); absent without weights. */
  team: z.optional(z.nullable(z.number())),
});
export type AlertNumbers = z.infer<typeof alertNumbersSchema>;

export const alertSchema = z.looseObject({
  id: z.string(),
  watchlist_id: z.string(),
  watchlist_name: z.string(),
  rule: z.string(),
  kind: z.enum(ALERT_KINDS),
  iso: z.string(),
  country: z.string(),
  /** Why, in words: "Active +12.4 (41.0 → 53.4) between the batches of …". */
  message: z.string(),
  /** The country page (a path of this dashboard). */
  link: z.string(),
  batch_as_of: z.string(),
  before: z.nullable(alertNumbersSchema),
  after: alertNumbersSchema,
  created_at: z.string(),
  read_at: z.nullable(z.string()),
});
export type Alert = z.infer<typeof alertSchema>;

export const alertListResponseSchema = z.looseObject({
  ...cursorPageShape,
  alerts: z.array(alertSchema),
  unread: z.int(),
});
export type AlertListResponse = z.infer<typeof alertListResponseSchema>;

export const unreadCountResponseSchema = z.looseObject({
  ok: z.literal(true),
  unread: z.int(),
});

/** `GET /api/watchlists/:id/deliveries`: every attempt, newest first (at most 100). */
export const deliveryLogEntrySchema = z.looseObject({
  /** The `webhook-id` (the same on every retry of one message). */
  message_id: z.string(),
  channel: z.enum(['webhook', 'email']),
  /** The message's state now: pending (a retry is due), delivered, failed. */
  state: z.enum(['pending', 'delivered', 'failed']),
  attempt: z.int(),
  at: z.string(),
  /** HTTP status (or SMTP reply code); null when no answer came. */
  status: z.nullable(z.int()),
  duration_ms: z.int(),
  error: z.nullable(z.string()),
});
export type DeliveryLogEntry = z.infer<typeof deliveryLogEntrySchema>;

export const deliveryLogResponseSchema = z.looseObject({
  ok: z.literal(true),
  deliveries: z.array(deliveryLogEntrySchema),
});

/**
 * The words of an active move measured from an older batch than the previous one (a country the
 * previous batch lacks, server/jobs/alert-before.ts), as the evaluator writes them in English;
 * the other languages' readers tell the two cases apart by them.
 */
export const SINCE_BATCH_OF = 'since the batch of';

export function measuredFromOlderBatch(message: string): boolean {
  return message.includes(` ${SINCE_BATCH_OF} `);
}
