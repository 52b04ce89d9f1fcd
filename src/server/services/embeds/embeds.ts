import { z } from 'zod';
import { DAY_MS } from '../../../shared/durations.js';
import { EMBED_VIEW_CHOICES } from '../../../shared/reach-api.js';
import { ISO3_PATTERN, normaliseIso3 } from '../../../shared/iso.js';
import type { Principal } from '../../principal.js';
import type { Database } from '../../store/connection.js';
import { teamListCountries } from '../../store/feed-rows.js';
import {
  byHash,
  countLive,
  countUse,
  insertEmbed,
  listLive,
  revoke,
  type ReachRow,
} from '../../store/reach.js';
import { ApiProblem } from '../api-problem.js';
import {
  baseView,
  expiresField,
  hashOf,
  idOf,
  nameField,
  newSecret,
  whyNotLive,
} from '../feeds/one-use-secrets.js';

/** Live embeds at once: each is a door to our data on another site, so they stay reviewable. */
export const EMBEDS_MAX = 50;
/** Every embed token starts so (the feed-token guard refuses it anywhere but its page). */
export const EMBED_TOKEN_PREFIX = 'gre_';
export const EMBED_VIEWS = EMBED_VIEW_CHOICES;
export type EmbedView = (typeof EMBED_VIEWS)[number];

const ORIGIN_WORDS =
  "origin must be a site's origin such as https://intranet.example.com (scheme, host and port; no path)";

const embedInputSchema = z.strictObject(
  {
    name: nameField,
    view: z.enum(EMBED_VIEWS, { error: `view must be one of ${EMBED_VIEWS.join(', ')}` }),
    subject: z
      .string({ error: 'subject must be text' })
      .max(20, 'subject may have at most 20 characters')
      .optional(),
    origin: z.string({ error: ORIGIN_WORDS }).max(200, 'origin may have at most 200 characters'),
    expires_in_days: expiresField,
  },
  {
    error:
      'The body must be {"name", "view", "subject" (country or watchlist views), "origin", "expires_in_days"}',
  },
);

/** `https://a.example:8443` as the browser sends it in Origin, or a 400 naming the field. */
export function parseOrigin(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ApiProblem(400, ORIGIN_WORDS);
  }
  if (
    (url.protocol !== 'https:' && url.protocol !== 'http:') ||
    url.origin !== raw.replace(/\/$/, '')
  ) {
    throw new ApiProblem(400, ORIGIN_WORDS);
  }
  return url.origin;
}

function view(row: ReachRow) {
  return { ...baseView(row), view: row.view, subject: row.subject || null, origin: row.origin };
}
export type EmbedListing = ReturnType<typeof view>;

/** What a page load tells about where it comes from (the browser's own headers). */
export interface EmbedAsker {
  /** The Referer's origin, or null when none was sent. */
  refererOrigin: string | null;
  /** This BFF's own origin as the request reached it. */
  ownOrigin: string;
  /** `?view=` when the URL names one. */
  askedView: string | null;
}

/**
 * Embeds (issue 34): an admin makes one for one view and one site origin with an expiry; its URL
 * (a random 256-bit token, only its SHA-256 kept) is shown once. Every page load is checked and
 * counted in the store in one statement: a revocation holds on every replica from the next load.
 */
export class Embeds {
  constructor(
    private readonly db: Database,
    private readonly now: () => number,
  ) {}

  async create(body: unknown, by: Principal): Promise<{ embed: EmbedListing; secret: string }> {
    const parsed = embedInputSchema.safeParse(body);
    if (!parsed.success)
      throw new ApiProblem(400, parsed.error.issues[0]?.message ?? 'Invalid body');
    const input = parsed.data;
    const origin = parseOrigin(input.origin);
    const subject = await this.#subject(input.view, input.subject);
    const now = this.now();
    if ((await countLive(this.db, 'embeds', now)) >= EMBEDS_MAX) {
      throw new ApiProblem(
        409,
        `There are already ${EMBEDS_MAX} embeds, the most there may be: revoke one before making another`,
      );
    }
    const secret = newSecret(EMBED_TOKEN_PREFIX);
    const row = await insertEmbed(this.db, {
      name: input.name,
      view: input.view,
      subject,
      origin,
      secretHash: hashOf(secret),
      createdAt: now,
      createdBy: by.name,
      expiresAt: now + input.expires_in_days * DAY_MS,
    });
    return { embed: view(row), secret };
  }

  async #subject(kind: EmbedView, raw: string | undefined): Promise<string> {
    if (kind === 'map' || kind === 'index') {
      if (raw !== undefined && raw !== '')
        throw new ApiProblem(400, `subject is not taken by the ${kind} view`);
      return '';
    }
    if (kind === 'country') {
      if (raw === undefined || !ISO3_PATTERN.test(raw)) {
        throw new ApiProblem(
          400,
          'subject must be the country’s ISO 3166-1 alpha-3 code, such as UKR',
        );
      }
      return normaliseIso3(raw);
    }
    if (raw === undefined || !/^[1-9]\d{0,14}$/.test(raw)) {
      throw new ApiProblem(400, 'subject must be a team watchlist’s id, such as "12"');
    }
    if ((await teamListCountries(this.db, Number(raw))) === null) {
      throw new ApiProblem(400, `subject: there is no team watchlist with id ${raw}`);
    }
    return raw;
  }

  async list(): Promise<EmbedListing[]> {
    return (await listLive(this.db, 'embeds', this.now())).map(view);
  }

  async revoke(rawId: string): Promise<EmbedListing> {
    const row = await revoke(this.db, 'embeds', idOf(rawId, 'embed'), this.now());
    if (row === null)
      throw new ApiProblem(404, 'No such embed (it may have been revoked or expired already)');
    return view(row);
  }

  /**
   * The embed `secret` opens, or a 403 naming why not: unknown, revoked, expired, asked from a
   * page of another site (Referer), or for another view. `count` counts the load as a use (the
   * page's own check for a new batch is not one).
   */
  async open(secret: string, asker: EmbedAsker, count: boolean): Promise<EmbedListing> {
    if (!secret.startsWith(EMBED_TOKEN_PREFIX))
      throw new ApiProblem(403, 'This is not an embed link');
    const now = this.now();
    const hash = hashOf(secret);
    const known = await byHash(this.db, 'embeds', hash);
    if (known === null) throw new ApiProblem(403, 'This embed is not known here');
    const dead = whyNotLive(known, now);
    if (dead !== null) throw new ApiProblem(403, `This embed was ${dead}`);
    const from = asker.refererOrigin;
    if (from !== null && from !== known.origin && from !== asker.ownOrigin) {
      throw new ApiProblem(403, `This embed may be shown only on ${known.origin}, not on ${from}`);
    }
    if (asker.askedView !== null && asker.askedView !== known.view) {
      throw new ApiProblem(403, `This embed shows the ${known.view} view, not ${asker.askedView}`);
    }
    if (!count) return view(known);
    const used = await countUse(this.db, 'embeds', hash, now);
    if (used === null) throw new ApiProblem(403, 'This embed was revoked');
    return view(used);
  }
}
