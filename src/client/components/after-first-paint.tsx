import { useDeferredValue, type ReactNode } from 'react';

/**
 * Renders `children` in the render after the first one, and `fallback` until then. For what
 * lies below the fold on the first view: React renders it in the background right after the
 * first frame is on screen (useDeferredValue with an initial value), instead of as part of
 * that frame, which then comes sooner. On later renders it makes no difference.
 */
export function AfterFirstPaint({
  children,
  fallback,
}: {
  children: ReactNode;
  fallback: ReactNode;
}) {
  const ready = useDeferredValue(true, false);
  return ready ? children : fallback;
}
