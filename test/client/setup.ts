import '@testing-library/jest-dom/vitest';
import { afterEach, vi } from 'vitest';
import { clearToasts } from '../../src/client/lib/toasts';

// jsdom lacks these browser APIs; recharts measures with ResizeObserver and the router's scroll
// restoration calls scrollTo. Inert stand-ins are enough: tests assert on text and roles.
class InertResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
globalThis.ResizeObserver ??= InertResizeObserver as unknown as typeof ResizeObserver;
window.scrollTo = (() => {}) as typeof window.scrollTo;

afterEach(() => {
  clearToasts();
  vi.unstubAllGlobals();
});
