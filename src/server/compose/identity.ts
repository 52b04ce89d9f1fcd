import type { FastifyBaseLogger } from 'fastify';
import type { AccessConfig } from '../config.js';
import type { Access } from '../plugins/access.js';
import type { SessionStore } from '../plugins/sessions.js';
import type { IdentityRouteOptions } from '../routes/identity.js';
import { SharedSessions } from '../replicas/shared-sessions.js';
import { ApiTokens } from '../services/identity/api-tokens.js';
import { AuditLog } from '../services/identity/audit.js';
import type { HistoryStore } from '../store/history-store.js';
import type { Replicas } from './replicas.js';

/** Who people are, kept in the store: sign-in sessions, API tokens, the audit log. */
export interface IdentityParts {
  /** Sessions in the store survive restarts; replicas share them (and revocations, as news). */
  sessions: SessionStore | undefined;
  apiTokens: ApiTokens | null;
  /** Every write and sign-in is appended here (needs the store). */
  audit: AuditLog | null;
}

export function composeIdentity(
  access: AccessConfig,
  parts: {
    store: HistoryStore | null;
    replicas: Replicas | null;
    now: () => number;
    logger: FastifyBaseLogger;
  },
): IdentityParts {
  const { store, replicas, now, logger } = parts;
  if (store === null) return { sessions: undefined, apiTokens: null, audit: null };
  const sessions =
    replicas?.sessions() ??
    new SharedSessions({
      db: store.db,
      now,
      reportStore: (ok, error) => {
        if (!ok) logger.warn({ err: error }, 'the session store could not be reached');
      },
      announceRevoked: () => {},
    });
  return {
    sessions,
    apiTokens: new ApiTokens(store.db, now),
    audit: new AuditLog({
      db: store.db,
      now,
      retentionDays: access.auditRetentionDays ?? 365,
      log: logger,
    }),
  };
}

/** What the identity routes (who am I, sign-out, API tokens, sessions) answer with. */
export function identityRouteOptions(
  people: IdentityParts,
  signIn: Access | null,
): IdentityRouteOptions {
  return {
    signOutPath: signIn?.signOutPath ?? null,
    apiTokens: people.apiTokens,
    sessions: signIn?.sessions ?? null,
  };
}
