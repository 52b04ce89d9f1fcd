import { render, screen } from '@testing-library/react';
import { useLayoutEffect } from 'react';
import { describe, expect, it } from 'vitest';
import { AfterFirstPaint } from '../../src/client/components/after-first-paint';

/** Records each commit of the element it stands for. */
function Committed({ name, log }: { name: string; log: string[] }) {
  useLayoutEffect(() => {
    log.push(name);
  }, [name, log]);
  return <p>{name}</p>;
}

describe('AfterFirstPaint', () => {
  it('commits the fallback first and the children in the next render', async () => {
    const log: string[] = [];
    render(
      <AfterFirstPaint fallback={<Committed name="fallback" log={log} />}>
        <Committed name="content" log={log} />
      </AfterFirstPaint>,
    );
    expect(await screen.findByText('content')).toBeInTheDocument();
    expect(screen.queryByText('fallback')).not.toBeInTheDocument();
    expect(log).toEqual(['fallback', 'content']);
  });
});
