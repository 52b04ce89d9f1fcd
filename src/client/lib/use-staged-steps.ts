import { startTransition, useEffect, useState } from 'react';

/**
 * Counts from 0 up to `count`, one step per commit, each in a transition of its own: what a
 * component draws from step n on is rendered in the background once step n - 1 is committed,
 * and committed in a later task. For a drawing too costly for one task on a phone: the
 * overview's world map (Leaflet's map, then its 176 shapes, then its markers) was one task of
 * 775–970 ms at 4x CPU together with the rest of the page's first commit (docs/benchmarks.md),
 * during which a tap waited and nothing of the page was painted. In steps, the page paints
 * first and a tap is answered between them.
 *
 * Mount it with the drawing's data in hand: steps taken with nothing to draw would leave the
 * whole drawing to one commit again. The count only ever rises: a component drawn in full
 * stays drawn.
 */
export function useStagedSteps(count: number): number {
  const [step, setStep] = useState(0);
  useEffect(() => {
    if (step >= count) return;
    startTransition(() => setStep(step + 1));
  }, [step, count]);
  return step;
}
