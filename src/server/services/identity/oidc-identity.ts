import * as client from 'openid-client';
import { DEFAULT_SCOPES, type OidcConfig } from '../../config-oidc.js';
import type { Principal, RoleOf } from '../../principal.js';
import {
  emailRefusal,
  mergeClaims,
  personClaims,
  personOf,
  SubjectMismatch,
  type Claims,
} from './oidc-claims.js';

/** The browser's half of a sign-in in progress: state, nonce, PKCE verifier, where to go after. */
export interface Pending {
  state: string;
  nonce: string;
  verifier: string;
  returnTo: string;
}

/**
 * What a session keeps to ask the provider about its person again (sealed before the store sees
 * it: oidc-keys.ts): the tokens, and the person's claims of the latest ID token, which a UserInfo
 * answer is merged with (some providers put groups in the ID token only).
 */
export interface ProviderGrant {
  accessToken: string;
  refreshToken: string | null;
  idClaims: Claims;
  /** When the provider last answered for this person (epoch ms). */
  verifiedAt: number;
}

/** A re-check's outcome: the person as the provider describes them now, refused, or unknown. */
export type Recheck =
  | { outcome: 'current'; claims: Claims; grant: ProviderGrant }
  | { outcome: 'refused' }
  | { outcome: 'unreachable' };

/** The HTTP status a library error carries (its own, or its response's), if any. */
function statusOf(error: unknown): number | undefined {
  const own = (error as { status?: unknown }).status;
  if (typeof own === 'number') return own;
  const cause = error instanceof Error ? error.cause : undefined;
  return cause instanceof Response ? cause.status : undefined;
}

/**
 * True when the provider answered no for this person (a refused refresh token, an access token it
 * no longer accepts, an answer for someone else); false when it could not be asked (down, 5xx).
 */
export function providerRefused(error: unknown): boolean {
  if (error instanceof SubjectMismatch) return true;
  const status = statusOf(error);
  if (status !== undefined) return status >= 400 && status < 500;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('OAUTH_');
}

/**
 * The provider, as openid-client sees it: discovered from the issuer on first use (retried on the
 * next if it was unreachable, so a provider down at start-up does not stop the dashboard).
 */
export class OidcIdentity {
  #discovered: Promise<client.Configuration> | null = null;

  /**
   * The identity part's one entry for the settings (issue 35): the OIDC slice stays here; the
   * sign-in plugin asks this object, not the settings. `roleOf` is the access plugin's mapping.
   */
  constructor(
    private readonly oidc: OidcConfig,
    private readonly roleOf: RoleOf,
    private readonly now: () => number,
  ) {}

  /** The person the claims name, with the role OIDC_ROLE_CLAIM and OIDC_EDITORS/ADMINS give. */
  personOf(claims: Claims): Principal {
    return personOf(claims, this.oidc.roleClaim, this.roleOf);
  }

  /** Null when this person may sign in (OIDC_ALLOWED_EMAIL_DOMAINS), else why not. */
  emailRefusal(claims: Claims, email: string | null): string | null {
    return emailRefusal(claims, email, this.oidc.allowedEmailDomains);
  }

  configuration(): Promise<client.Configuration> {
    const { oidc } = this;
    this.#discovered ??= client
      .discovery(
        new URL(oidc.issuerUrl),
        oidc.clientId,
        undefined,
        client.ClientSecretPost(oidc.clientSecret.reveal()),
        // http:// is accepted only for a loopback issuer (config-oidc.ts), for tests.
        oidc.issuerUrl.startsWith('http:') ? { execute: [client.allowInsecureRequests] } : {},
      )
      .then((config) => {
        // The ID token's signature is checked against the provider's published keys, even
        // though it came straight from the token endpoint (the library would otherwise skip it).
        client.enableNonRepudiationChecks(config);
        return config;
      })
      .catch((error: unknown) => {
        this.#discovered = null;
        throw error;
      });
    return this.#discovered;
  }

  async authorizationUrl(pending: Pending): Promise<URL> {
    return client.buildAuthorizationUrl(await this.configuration(), {
      redirect_uri: this.oidc.redirectUrl,
      scope: (this.oidc.scopes ?? DEFAULT_SCOPES).join(' '),
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
    });
  }

  /**
   * The code exchange (state, nonce, PKCE, the ID token's issuer, audience, expiry, signature are
   * checked by openid-client), then UserInfo, merged with the ID token's claims.
   */
  async signIn(
    callbackQuery: string,
    pending: Pending,
  ): Promise<{ claims: Claims; grant: ProviderGrant; idToken: string | null }> {
    const config = await this.configuration();
    const current = new URL(this.oidc.redirectUrl);
    current.search = callbackQuery;
    const tokens = await client.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: pending.verifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    const idClaims = tokens.claims();
    if (idClaims === undefined) throw new Error('no ID token');
    const grant: ProviderGrant = {
      accessToken: tokens.access_token,
      refreshToken: tokens.refresh_token ?? null,
      idClaims: personClaims(idClaims),
      verifiedAt: this.now(),
    };
    const claims = mergeClaims(idClaims, await this.userInfo(config, grant.accessToken));
    return { claims, grant, idToken: tokens.id_token ?? null };
  }

  /**
   * Asks the provider about the grant's person again: with the refresh token when there is one
   * (a new ID token and access token: a disabled account is refused, changed groups show), else
   * UserInfo with the access token held.
   */
  async recheck(grant: ProviderGrant): Promise<Recheck> {
    try {
      const config = await this.configuration();
      let next = { ...grant, verifiedAt: this.now() };
      if (grant.refreshToken !== null) {
        const tokens = await client.refreshTokenGrant(config, grant.refreshToken);
        const idClaims = tokens.claims();
        if (idClaims !== undefined && idClaims.sub !== grant.idClaims.sub) {
          throw new SubjectMismatch('a refreshed ID token names another subject');
        }
        next = {
          ...next,
          accessToken: tokens.access_token,
          refreshToken: tokens.refresh_token ?? grant.refreshToken,
          idClaims: idClaims === undefined ? grant.idClaims : personClaims(idClaims),
        };
      }
      const claims = mergeClaims(next.idClaims, await this.userInfo(config, next.accessToken));
      return { outcome: 'current', claims, grant: next };
    } catch (error) {
      return providerRefused(error) ? { outcome: 'refused' } : { outcome: 'unreachable' };
    }
  }

  /** UserInfo's claims (null when the provider has no UserInfo endpoint); `sub` checked by merge. */
  private async userInfo(
    config: client.Configuration,
    accessToken: string,
  ): Promise<Claims | null> {
    if (!config.serverMetadata().userinfo_endpoint) return null;
    return client.fetchUserInfo(config, accessToken, client.skipSubjectCheck);
  }

  /** Where to end the provider's session too, when it offers an end-session endpoint. */
  async endSessionUrl(idToken: string | null): Promise<string | null> {
    const config = await this.configuration().catch(() => null);
    if (!config?.serverMetadata().end_session_endpoint) return null;
    return client.buildEndSessionUrl(config, {
      post_logout_redirect_uri: new URL('/auth/signed-out', this.oidc.redirectUrl).href,
      ...(idToken ? { id_token_hint: idToken } : { client_id: this.oidc.clientId }),
    }).href;
  }
}
