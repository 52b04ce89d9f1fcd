import { useEffect, useRef, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';

/** How far beyond the screen a deferred drawing starts: drawn before it is scrolled to. */
const LEAD = '400px 0px';

/** Printing has begun (print emulation or a print dialog's layout). */
function printing(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('print').matches;
}

/**
 * Draws `children` once its place comes within LEAD of the screen, or when the page is printed;
 * until then a still box of the height it will take, so nothing moves when it is drawn. For
 * costly drawings below the first screen: the overview's trend chart was the longest task of its
 * load on a phone (about a second at 4x CPU, docs/benchmarks.md), spent on a chart a reader who
 * stays at the top never sees. Without IntersectionObserver (jsdom, old engines) it draws at once.
 */
export function WhenNear({ height, children }: { height: number; children: ReactNode }) {
  const [near, setNear] = useState(() => typeof IntersectionObserver !== 'function' || printing());
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
    // Printing lays the page out right after these events: drawn now, not in a later render.
    const drawForPrint = () => flushSync(() => setNear(true));
    // The media query also covers print emulation, which sends no beforeprint.
    const print = typeof window.matchMedia === 'function' ? window.matchMedia('print') : null;
    const onMedia = (event: MediaQueryListEvent) => {
      if (event.matches) drawForPrint();
    };
    window.addEventListener('beforeprint', drawForPrint);
    print?.addEventListener('change', onMedia);
    return () => {
      observer.disconnect();
      window.removeEventListener('beforeprint', drawForPrint);
      print?.removeEventListener('change', onMedia);
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
