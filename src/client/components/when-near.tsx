import { useEffect, useRef, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { isPrinting, onPrinting } from '../lib/print-events';

/** How far beyond the screen a deferred drawing starts: drawn before it is scrolled to. */
const LEAD = '400px 0px';

/**
 * Draws `children` once its place comes within LEAD of the screen, or when the page is printed;
 * until then a still box of the height it will take, so nothing moves when it is drawn. For
 * costly drawings below the first screen: the overview's trend chart was the longest task of its
 * load on a phone (about a second at 4x CPU, docs/benchmarks.md), spent on a chart a reader who
 * stays at the top never sees. Without IntersectionObserver (jsdom, old engines) it draws at once.
 */
export function WhenNear({ height, children }: { height: number; children: ReactNode }) {
  const [near, setNear] = useState(
    () => typeof IntersectionObserver !== 'function' || isPrinting(),
  );
  const place = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = place.current;
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: LEAD },
    );
    observer.observe(element);
    // Printing lays the page out right after its signal: drawn now, not in a later render.
    const stopHearing = onPrinting(() => flushSync(() => setNear(true)));
    return () => {
      observer.disconnect();
      stopHearing();
    };
  }, [near]);
  if (near) return children;
  // The Suspense fallback's box (Skeleton with a height), without its "loading" status: nothing
  // is being fetched, and a page waiting for its panels (aria-busy) is not held by it.
  return (
    <div ref={place} className="skeleton when-near" aria-hidden="true">
      <div className="skeleton-block" style={{ height }} />
    </div>
  );
}
