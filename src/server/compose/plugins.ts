import type { FastifyInstance } from 'fastify';
import type { ClientIdentity } from '../client-identity.js';
import type { AccessConfig, LookConfig } from '../config.js';
import { installAccess, type Access } from '../plugins/access.js';
import { installAudit } from '../plugins/audit.js';
import { installCrossSiteGuard } from '../plugins/cross-site.js';
import { installFastAnswers } from '../plugins/fast-answers.js';
import type { FastAnswers } from '../services/rendering/fast-answers.js';
import { installErrorHandlers } from '../plugins/errors.js';
import {
  CompressedAnswers,
  installAnswerCompression,
} from '../services/rendering/answer-compression.js';
import { installStrictJson } from '../plugins/json-body.js';
import { installReachTokenGuard } from '../plugins/reach-token-guard.js';
import { installPreloadHints } from '../plugins/preload-hints.js';
import { installRoles } from '../plugins/roles.js';
import { installSecurity, type SecurityOptions } from '../plugins/security.js';
import { registerSpa } from '../plugins/spa.js';
import type { IdentityParts } from './identity.js';

/** The four values the security headers and the Host check read from the settings. */
export function securityOptions(access: AccessConfig, look: LookConfig): SecurityOptions {
  return {
    behindTls: access.behindTls === true,
    allowedHosts: access.allowedHosts,
    oidcIssuerUrl: access.oidc?.issuerUrl ?? null,
    tileUrl: look.tiles?.url ?? null,
  };
}

/**
 * Every plugin, in the order their hooks run. The security plugins (cross-site guard, headers
 * and Host check, access, roles) are installed whatever parts are on; the audit log needs the
 * store, the SPA a built client.
 */
export async function installPlugins(
  app: FastifyInstance,
  settings: { access: AccessConfig; look: LookConfig },
  parts: {
    identity: ClientIdentity;
    people: IdentityParts;
    now: () => number;
    /** Built SPA (dist/client) to serve; null serves the API only. */
    clientDir: string | null;
    /** The hot path, put in front of Fastify when no hook must see a cached GET. */
    fast: FastAnswers;
  },
): Promise<Access | null> {
  const { access, look } = settings;
  const { people, clientDir } = parts;
  installCrossSiteGuard(app, access.behindTls === true);
  const security = installSecurity(app, securityOptions(access, look));
  installReachTokenGuard(app);
  const signIn = await installAccess(app, access, parts.identity, parts.now, {
    sessions: people.sessions,
    apiTokens: people.apiTokens ?? undefined,
    audit: people.audit ?? undefined,
  });
  installFastAnswers(app, parts.fast, security, signIn !== null);
  installRoles(app);
  if (people.audit) installAudit(app, people.audit, { accessConfigured: signIn !== null });
  if (clientDir) {
    await registerSpa(app, clientDir);
    installPreloadHints(app);
  }
  installErrorHandlers(app, clientDir !== null);
  installStrictJson(app);
  // Last: compresses what every other hook has finished with (store answers, lists, errors).
  installAnswerCompression(app, new CompressedAnswers());
  return signIn;
}
