import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { clearToasts } from '../../src/client/lib/toasts';
import { failUnansweredRequests } from './fake-bff';
import { WAIT_MS } from './waits';

// jsdom lacks these browser APIs; recharts measures with ResizeObserver and the router's scroll
// restoration calls scrollTo. Inert stand-ins are enough: tests assert on text and roles.
class InertResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
globalThis.ResizeObserver ??= InertResizeObserver as unknown as typeof ResizeObserver;
window.scrollTo = (() => {}) as typeof window.scrollTo;

// The country route and the trend panels are lazy chunks; on two shared cores with other jobs
// running, importing one inside jsdom has taken over 5 s (issue 30: "no table found in time").
// Waiting longer changes no assertion.
configure({ asyncUtilTimeout: WAIT_MS });

afterEach(() => {
  // Unmounted first: emptying the toast store re-renders a mounted Toaster outside act(), and
  // React warned about it once per test (83 warnings in a run).
  cleanup();
  clearToasts();
  try {
    // A request the fake BFF could not answer fails the test that made it.
    failUnansweredRequests();
  } finally {
    vi.unstubAllGlobals();
  }
});
