import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from 'fastify';
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

/**
 * The role check a route needs, decided once when it is registered: none for sign-in, sign-out
 * and the probes (they come before anyone is known) nor for a read that declares no role;
 * otherwise the least role, or 'nobody' for a write that declares none (default deny).
 */
function neededFor(method: string, config: RouteRoleConfig | undefined): Role | 'nobody' | null {
  if (config?.signInFree === true) return null;
  const needed = config?.role;
  if (needed === undefined) return isWrite(method) ? 'nobody' : null;
  return needed;
}

interface RouteRoleConfig {
  role?: Role;
  signInFree?: boolean;
}

/** Null when the request's role may use a route that needs `needed`, else the plain-word refusal. */
function refusalFor(request: FastifyRequest, needed: Role | 'nobody'): string | null {
  if (needed === 'nobody') return 'Nobody may do this: the action declares no role';
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
 * new write route cannot be open by omission. The check is a hook of each route that needs one,
 * decided when the route is registered: a read that declares no role (every cached answer)
 * passes no role hook at all, and a request that matches no route (a 404 or 405) has none to
 * pass. Runs after access control's hook, which says who the request acts for (route hooks run
 * after the app's), and before the body is read, so a refusal costs nothing. A route registered
 * before this is installed would have no check: the app refuses to start if one needs it.
 */
export function installRoles(app: FastifyInstance): void {
  if (!app.hasDecorator('registeredRoutes')) throw new Error('installRoles needs collectRoutes');
  const checked = new Set<string>();
  const checks = new Map<Role | 'nobody', RoleHook>();
  const checkFor = (needed: Role | 'nobody'): RoleHook => {
    let check = checks.get(needed);
    if (!check) {
      check = (request, reply, done) => {
        const refusal = refusalFor(request, needed);
        if (refusal !== null) {
          void sendError(reply, 403, refusal);
          return;
        }
        done();
      };
      checks.set(needed, check);
    }
    return check;
  };
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    // One hook per route, however many methods it has: the strictest need of any of them
    // applies to a request only through its own method, so decide per request among those.
    const needs = new Map(methods.map((method) => [method, neededFor(method, route.config)]));
    if ([...needs.values()].every((needed) => needed === null)) return;
    const hook: RoleHook =
      needs.size === 1
        ? checkFor([...needs.values()][0] as Role | 'nobody')
        : (request, reply, done) => {
            const needed = needs.get(request.method) ?? null;
            if (needed === null) return done();
            checkFor(needed)(request, reply, done);
          };
    route.onRequest = [hook, ...asArray(route.onRequest)];
    for (const method of methods) checked.add(`${method} ${route.url}`);
  });
  app.addHook('onReady', (done) => {
    const unchecked = app
      .registeredRoutes()
      .filter((route) => neededFor(route.method, route) !== null)
      .filter((route) => !checked.has(`${route.method} ${route.url}`));
    if (unchecked.length === 0) return done();
    const names = unchecked.map((route) => `${route.method} ${route.url}`).join(', ');
    done(new Error(`Routes registered before installRoles have no role check: ${names}`));
  });
}

type RoleHook = (
  request: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
) => void;

function asArray<T>(hooks: T | T[] | undefined): T[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}
