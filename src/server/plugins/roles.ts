import type { FastifyInstance, FastifyRequest } from 'fastify';
import { roleAtLeast, type Role } from '../../shared/roles.js';
import { principalOf } from '../principal.js';
import { sendError } from '../reply.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The least role that may use this route (issue 21), declared on the route itself. A write
     * (any method but GET, HEAD, OPTIONS) without one is refused to everyone.
     */
    role?: Role;
  }
  interface FastifyInstance {
    /** Every route as registered (method, URL, declared role): the role walk test reads it. */
    registeredRoutes(): readonly RegisteredRoute[];
  }
}

export interface RegisteredRoute {
  method: string;
  url: string;
  role: Role | undefined;
  signInFree: boolean;
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isWrite(method: string): boolean {
  return !READS.has(method.toUpperCase());
}

/** `{ config: { role } }` for a route's options. */
export function needs(role: Role): { config: { role: Role } } {
  return { config: { role } };
}

const ARTICLE: Record<Role, string> = {
  viewer: 'a viewer',
  editor: 'an editor',
  admin: 'an admin',
};

/** The refusal a role below `needed` gets, in plain words. */
export function roleRefusal(role: Role, needed: Role): string {
  return `Your role (${role}) may not do this: it needs ${ARTICLE[needed]}${needed === 'admin' ? '' : ' or above'}. Ask an admin if you need it.`;
}

/** Null when the request's role may use its route, else the plain-word refusal. */
function refusalFor(request: FastifyRequest): string | null {
  const config = request.routeOptions.config;
  // Sign-in, sign-out and the probes come before anyone is known; a 404 has no route.
  if (config.signInFree === true || request.routeOptions.url === undefined) return null;
  const needed = config.role;
  if (needed === undefined) {
    return isWrite(request.method) ? 'Nobody may do this: the action declares no role' : null;
  }
  const role = principalOf(request).role;
  return roleAtLeast(role, needed) ? null : roleRefusal(role, needed);
}

/** Records every route as it is registered: installed before any route, so it sees them all. */
export function collectRoutes(app: FastifyInstance): void {
  const routes: RegisteredRoute[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      routes.push({
        method,
        url: route.url,
        role: route.config?.role,
        signInFree: route.config?.signInFree === true,
      });
    }
  });
  app.decorate('registeredRoutes', () => routes);
}

/**
 * Roles enforced on the server for every route: each route declares the least role that may use
 * it (`config.role`), and a write that declares none is refused to everyone (default deny), so a
 * new write route cannot be open by omission. Installed after access control, whose hook says who
 * the request acts for; before the body is read, so a refusal costs nothing.
 */
export function installRoles(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    const refusal = refusalFor(request);
    if (refusal !== null) return sendError(reply, 403, refusal);
  });
}
