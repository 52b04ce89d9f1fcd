import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { WhenNear } from '../../src/client/components/when-near';

/*
 * Issue 32, point 2: a costly drawing below the first screen (the trend charts) waits until its
 * place comes near the screen, or the page is printed. jsdom has no IntersectionObserver: this
 * one is driven by the test, and refuses what it does not implement.
 */
class DrivenObserver {
  static made: DrivenObserver[] = [];
  observed: Element[] = [];
  disconnected = false;
  constructor(
    private readonly callback: (entries: { isIntersecting: boolean; target: Element }[]) => void,
    readonly options: { rootMargin?: string },
  ) {
    DrivenObserver.made.push(this);
  }
  observe(element: Element): void {
    this.observed.push(element);
  }
  disconnect(): void {
    this.disconnected = true;
  }
  unobserve(): never {
    throw new Error('DrivenObserver: unobserve is not implemented');
  }
  takeRecords(): never {
    throw new Error('DrivenObserver: takeRecords is not implemented');
  }
  /** The observed place is (or is not) within the observer's margin of the screen. */
  report(isIntersecting: boolean): void {
    act(() => this.callback(this.observed.map((target) => ({ isIntersecting, target }))));
  }
}

const own = Object.getOwnPropertyDescriptor(globalThis, 'IntersectionObserver');
function installObserver(): void {
  DrivenObserver.made = [];
  Object.defineProperty(globalThis, 'IntersectionObserver', {
    value: DrivenObserver,
    configurable: true,
    writable: true,
  });
}
afterEach(() => {
  if (own) Object.defineProperty(globalThis, 'IntersectionObserver', own);
  else delete (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver;
});

function drawing() {
  return (
    <WhenNear height={180}>
      <p>the chart</p>
    </WhenNear>
  );
}

describe('WhenNear', () => {
  it('keeps a still box of the height until its place comes near, then draws', () => {
    installObserver();
    const { container } = render(drawing());
    expect(screen.queryByText('the chart')).toBeNull();
    const place = container.querySelector('.when-near');
    expect(place?.getAttribute('aria-hidden')).toBe('true');
    // Not a loading status: nothing is fetched, and waits for panels (aria-busy) go on.
    expect(container.querySelector('[aria-busy], [role="status"]')).toBeNull();
    expect((place?.firstElementChild as HTMLElement).style.height).toBe('180px');
    const [observer] = DrivenObserver.made;
    expect(observer?.observed).toEqual([place]);
    expect(observer?.options.rootMargin).toBe('400px 0px');

    observer!.report(false);
    expect(screen.queryByText('the chart')).toBeNull();
    observer!.report(true);
    expect(screen.getByText('the chart')).toBeTruthy();
    expect(container.querySelector('.when-near')).toBeNull();
    expect(observer!.disconnected).toBe(true);
  });

  it('draws in the same turn when printing begins (a print layout follows at once)', () => {
    installObserver();
    render(drawing());
    expect(screen.queryByText('the chart')).toBeNull();
    // No act(): flushSync must have drawn it before the event returns.
    window.dispatchEvent(new Event('beforeprint'));
    expect(screen.getByText('the chart')).toBeTruthy();
  });

  it('draws at once where there is no IntersectionObserver', () => {
    delete (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver;
    render(drawing());
    expect(screen.getByText('the chart')).toBeTruthy();
  });
});
