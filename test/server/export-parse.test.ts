import { afterEach, describe, expect, it, vi } from 'vitest';
import { get, startTestStack } from '../helpers/bff.js';
import type { TestClock } from '../helpers/clock.js';
import type { Stack } from '../helpers/stack.js';

let stack: (Stack & { clock: TestClock }) | null = null;
afterEach(async () => {
  vi.restoreAllMocks();
  await stack?.close();
  stack = null;
});

describe('the JSON export', () => {
  it('is parsed once per fetch: the check on arrival also builds the country index', async () => {
    stack = await startTestStack();
    const parse = vi.spyOn(JSON, 'parse');
    // The export is the only answer this large; the test reads no response body as JSON.
    const exportParses = () =>
      parse.mock.calls.filter(([text]) => typeof text === 'string' && text.length > 20_000).length;

    expect((await get(stack, '/api/countries')).statusCode).toBe(200);
    expect((await get(stack, '/api/v1/country/UKR')).statusCode).toBe(200);
    expect(stack.upstream.requestCount()).toBe(1);
    expect(exportParses()).toBe(1);
  });
});
