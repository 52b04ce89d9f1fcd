import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { startStack, type Stack, type StackOptions } from './stack.js';
import {
  accessFor,
  authModeFromEnv,
  credentialsFor,
  injectWith,
  type AuthMode,
} from './auth-modes.js';
import { TestClock } from './clock.js';

/**
 * A stack for server tests: both sides on one hand-moved clock, no SPA unless asked for. Unless
 * the test sets `config.access`, access is `auth` (default TEST_AUTH_MODE, else open) and
 * `app.inject` sends that mode's admin credentials (auth-modes.ts).
 */
export async function startTestStack(
  options: StackOptions & { clock?: TestClock; auth?: AuthMode } = {},
): Promise<Stack & { clock: TestClock }> {
  const clock = options.clock ?? new TestClock();
  const auth = options.config?.access !== undefined ? null : (options.auth ?? authModeFromEnv());
  const stack = await startStack({
    clientDir: null,
    ...options,
    config: { ...options.config, ...(auth === null ? {} : { access: accessFor(auth) }) },
    now: clock.now,
    demo: { now: clock.now, ...options.demo },
  });
  if (auth !== null) injectWith(stack.app, credentialsFor(auth));
  return { ...stack, clock };
}

export type Reply = LightMyRequestResponse;

export function get(stack: Stack, url: string, options: Omit<InjectOptions, 'url'> = {}) {
  return stack.app.inject({ method: 'GET', url, ...options });
}

/** Upstream requests (any status) made while `work` ran. */
export async function upstreamRequestsDuring(stack: Stack, work: () => Promise<unknown>) {
  const before = stack.upstream.requestCount();
  await work();
  return stack.upstream.requestCount() - before;
}
