import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { ROLES } from '../../../shared/roles.js';
import { isRole, type Principal } from '../../principal.js';
import {
  countLiveApiTokens,
  insertApiToken,
  listApiTokens,
  liveApiToken,
  markApiTokenUsed,
  revokeApiToken,
  type ApiTokenRow,
} from '../../store/api-tokens.js';
import type { Database } from '../../store/connection.js';
import { ApiProblem } from '../api-problem.js';
import { hasControlOrBidi } from './plain-text.js';
import { DAY_MS } from '../../../shared/durations.js';

/** Live API tokens at once: each is a standing credential, so they stay few enough to review. */
export const API_TOKENS_MAX = 100;
/** A token's last use is recorded at most this often. */
const USE_RECORDED_EVERY_MS = 60_000;

/** Every API token starts so, so a bearer value can be told from the dashboard token. */
export const API_TOKEN_PREFIX = 'grd_';

export const apiTokenInputSchema = z.strictObject(
  {
    name: z
      .string({ error: 'name must be text' })
      .trim()
      .min(1, 'name must not be empty')
      .max(100, 'name may have at most 100 characters')
      // The name reaches the audit log and the admin's pages: no line breaks, no bidi overrides.
      .refine(
        (name) => !hasControlOrBidi(name),
        'name must not contain control characters or bidirectional-text controls',
      ),
    role: z.enum(ROLES, { error: `role must be one of ${ROLES.join(', ')}` }),
    expires_in_days: z
      .number({ error: 'expires_in_days must be a whole number of days' })
      .int('expires_in_days must be a whole number of days')
      .min(1, 'expires_in_days must be at least 1')
      .max(365, 'expires_in_days may be at most 365'),
  },
  {
    error: 'The body must be {"name": …, "role": "viewer"|"editor"|"admin", "expires_in_days": …}',
  },
);

function hashOf(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

function view(row: ApiTokenRow) {
  return {
    id: String(row.id),
    name: row.name,
    role: row.role,
    created_at: new Date(row.createdAt).toISOString(),
    created_by: row.createdBy,
    expires_at: new Date(row.expiresAt).toISOString(),
    last_used_at: row.lastUsedAt === null ? null : new Date(row.lastUsedAt).toISOString(),
  };
}

/**
 * API tokens for scripts (issue 21): an admin makes one with a name, a role and an expiry; its
 * secret is shown once and only its SHA-256 is stored; listed without the secret; revocable.
 */
export class ApiTokens {
  readonly #lastRecorded = new Map<number, number>();

  constructor(
    private readonly db: Database,
    private readonly now: () => number,
  ) {}

  async create(body: unknown, by: Principal) {
    const parsed = apiTokenInputSchema.safeParse(body);
    if (!parsed.success)
      throw new ApiProblem(400, parsed.error.issues[0]?.message ?? 'Invalid body');
    const now = this.now();
    if ((await countLiveApiTokens(this.db, now)) >= API_TOKENS_MAX) {
      throw new ApiProblem(
        409,
        `There are already ${API_TOKENS_MAX} API tokens, the most there may be: revoke one before making another`,
      );
    }
    const secret = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const row = await insertApiToken(this.db, {
      name: parsed.data.name,
      role: parsed.data.role,
      secretHash: hashOf(secret),
      createdAt: now,
      createdBy: by.name,
      expiresAt: now + parsed.data.expires_in_days * DAY_MS,
    });
    return { token: view(row), secret };
  }

  async list() {
    return (await listApiTokens(this.db, this.now())).map(view);
  }

  /** Revokes a live token; answers it as it was (for the audit log). */
  async revoke(rawId: string): Promise<ReturnType<typeof view>> {
    const id = /^[1-9]\d{0,14}$/.test(rawId) ? Number(rawId) : null;
    if (id === null) throw new ApiProblem(400, 'The token id must be a number such as "12"');
    const before = (await listApiTokens(this.db, this.now())).find((row) => row.id === id);
    if (!(await revokeApiToken(this.db, id, this.now())) || before === undefined) {
      throw new ApiProblem(404, 'No such API token (it may have been revoked or expired already)');
    }
    return view(before);
  }

  /** Who a bearer value acts for, or null (not an API token, unknown, revoked or expired). */
  async principalFor(secret: string): Promise<Principal | null> {
    if (!secret.startsWith(API_TOKEN_PREFIX)) return null;
    const now = this.now();
    const row = await liveApiToken(this.db, hashOf(secret), now);
    if (row === null || !isRole(row.role)) return null;
    if (now - (this.#lastRecorded.get(row.id) ?? 0) >= USE_RECORDED_EVERY_MS) {
      this.#lastRecorded.set(row.id, now);
      if (this.#lastRecorded.size > API_TOKENS_MAX * 2) this.#lastRecorded.clear();
      await markApiTokenUsed(this.db, row.id, now);
    }
    return {
      name: `API token “${row.name}”`,
      email: null,
      subject: null,
      role: row.role,
      via: 'api-token',
    };
  }
}
