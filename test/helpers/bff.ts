import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { startStack, type Stack, type StackOptions } from './stack.js';
import { TestClock } from './clock.js';

/** A stack for server tests: both sides on one hand-moved clock, no SPA unless asked for. */
export async function startTestStack(
  options: StackOptions & { clock?: TestClock } = {},
): Promise<Stack & { clock: TestClock }> {
  const clock = options.clock ?? new TestClock();
  const stack = await startStack({
    clientDir: null,
    ...options,
    now: clock.now,
    demo: { now: clock.now, ...options.demo },
  });
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
