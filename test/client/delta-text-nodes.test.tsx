import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Delta } from '../../src/client/components/delta';
import { delta } from '../../src/server/services/rendering/first-frame';
import { frameWords } from '../../src/server/services/rendering/frame-words';

/** Every text node under `root`, in order: what the browser lays out and measures. */
function textNodes(root: Node): string[] {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const found: string[] = [];
  while (walker.nextNode()) found.push(walker.currentNode.nodeValue ?? '');
  return found;
}

function frameNodes(html: string): string[] {
  const holder = document.createElement('div');
  holder.innerHTML = html;
  return textNodes(holder);
}

/*
 * Issue 32, point 1: where the SPA takes over a change the server's frame showed, it writes the
 * same text nodes. The browser sizes a paragraph's paint by its text nodes: the SPA's "▲" and " "
 * as two nodes made a country page's change paragraph 62 px² larger than the frame's, so the
 * SPA's paint became the page's largest (its LCP) seconds after the frame's (first-frame.test.ts
 * saw it on a laptop once the day's demo figures made the difference show).
 */
describe("a change is written in the same text nodes as the server's frame writes it", () => {
  const words = frameWords('en');
  const suffix = 'in risk score since the previous batch recorded here';

  it.each([0.26, -4.88, 0, null])('%s, spelled out', (value) => {
    const { container } = render(<Delta value={value} verbose suffix={suffix} />);
    expect(textNodes(container)).toEqual(frameNodes(delta(words, value, suffix)));
  });

  it.each([8.05, -5.68, 0.001, null])('%s, as a signed number', (value) => {
    const { container } = render(<Delta value={value} />);
    expect(textNodes(container)).toEqual(frameNodes(delta(words, value)));
  });
});
