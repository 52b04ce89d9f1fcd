import { render, screen } from '@testing-library/react';
import { useLayoutEffect } from 'react';
import { describe, expect, it } from 'vitest';
import { useStagedSteps } from '../../src/client/lib/use-staged-steps';

/** Draws its step and records the step of each commit. */
function Staged({ count, log }: { count: number; log: number[] }) {
  const step = useStagedSteps(count);
  useLayoutEffect(() => {
    log.push(step);
  }, [step, log]);
  return <p>step {step}</p>;
}

describe('useStagedSteps', () => {
  it('commits every step on its own, from 0 up to the count, and stops there', async () => {
    const log: number[] = [];
    render(<Staged count={3} log={log} />);
    expect(await screen.findByText('step 3')).toBeInTheDocument();
    expect(log).toEqual([0, 1, 2, 3]);
  });
});
