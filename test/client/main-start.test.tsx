import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { statusBody, shellRoutes } from './fixtures/data';
import { installFakeBff } from './fake-bff';
import { WAIT_MS } from './waits';
import type * as Router from 'react-router';

// Issue 32: main.tsx starts the page (router, first loads, catalogue, render) in a task after
// the one that evaluated the scripts, so a phone answers a tap on the server's frame between the
// two. The router is the start's first step: counted here as main.tsx makes it.
const made = vi.hoisted(() => ({ routers: 0 }));
vi.mock('react-router', async (importOriginal) => {
  const original = await importOriginal<typeof Router>();
  return {
    ...original,
    createBrowserRouter: (...args: Parameters<typeof original.createBrowserRouter>) => {
      made.routers += 1;
      return original.createBrowserRouter(...args);
    },
  };
});

describe('main.tsx', () => {
  it('starts the page in a task after the one that evaluated it, then renders it', async () => {
    installFakeBff({ ...shellRoutes(), '/api/status': { body: statusBody() } });
    window.history.replaceState(null, '', '/no-such-page');
    document.body.innerHTML = '<div id="root"></div>';
    // The real entry renders as a browser does, outside act(): React is told it is not a test.
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;

    await import('../../src/client/main');
    // Only microtasks have run since the module's evaluation: the start has not begun.
    expect(made.routers).toBe(0);

    // A timer of 0 after the start's own: the start has run its first step by then.
    await new Promise((next) => setTimeout(next, 0));
    expect(made.routers).toBe(1);
    expect(
      await screen.findByRole('heading', { level: 1 }, { timeout: WAIT_MS }),
    ).toHaveTextContent('Page not found');
  });
});
