import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { startStack, type Stack, type StackOptions } from '../helpers/stack.js';
import { launchChromium, openPage, type WatchedPage } from './browser.js';

export interface BrowserSuite {
  /** The BFF on a demo upstream, with the history store as `npm start` runs it. */
  readonly stack: Stack;
  /** Opens a page that is checked after the test: see `browserSuite`. */
  open(
    options?: Parameters<typeof openPage>[1],
    expectedHttpErrors?: string[],
  ): Promise<WatchedPage>;
}

/**
 * One stack and one Chromium for a test file. After every test, every page it opened is checked:
 * no request left loopback, nothing threw, and no HTTP error but the ones the test provokes.
 */
export function browserSuite(options: StackOptions = {}): BrowserSuite {
  let stack: Stack | undefined;
  let browser: Browser | undefined;
  const opened: { watched: WatchedPage; expectedHttpErrors: string[] }[] = [];

  beforeAll(async () => {
    stack = await startStack({
      ...options,
      config: { history: { databaseUrl: null, retentionDays: null }, ...options.config },
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });
  afterEach(async () => {
    for (const { watched, expectedHttpErrors } of opened.splice(0)) {
      expect(watched.foreignRequests, 'requests to non-loopback hosts').toEqual([]);
      expect(watched.errors, 'page errors').toEqual([]);
      expect(watched.httpErrors, 'HTTP errors').toEqual(expectedHttpErrors);
      await watched.close();
    }
  });

  return {
    get stack() {
      if (!stack) throw new Error('the stack starts in beforeAll');
      return stack;
    },
    async open(options, expectedHttpErrors = []) {
      if (!browser) throw new Error('the browser starts in beforeAll');
      const watched = await openPage(browser, options);
      opened.push({ watched, expectedHttpErrors });
      return watched;
    },
  };
}
