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

/** The classes of every element under `root`, in order: what the stylesheet lays out by. */
function classes(root: Element): string[] {
  return [...root.querySelectorAll('*')].map((element) => element.className);
}

function frameOf(html: string): HTMLElement {
  const holder = document.createElement('div');
  holder.innerHTML = html;
  return holder;
}

function expectSameAsFrame(container: HTMLElement, html: string): void {
  const frame = frameOf(html);
  expect(textNodes(container)).toEqual(textNodes(frame));
  expect(classes(container)).toEqual(classes(frame));
}

/*
 * Issue 32, point 1: where the SPA takes over a change the server's frame showed, it writes the
 * same text nodes. The browser sizes a paragraph's paint by its text nodes: the SPA's "▲" and " "
 * as two nodes made a country page's change paragraph 62 px² larger than the frame's, so the
 * SPA's paint became the page's largest (its LCP) seconds after the frame's (first-frame.test.ts
 * saw it on a laptop once the day's demo figures made the difference show). The same classes,
 * so both wrap alike (a spelled-out change wraps, a signed figure does not).
 */
describe("a change is written in the same text nodes and classes as the server's frame writes it", () => {
  const words = frameWords('en');
  const suffix = 'in risk score since the previous batch recorded here';

  it.each([0.26, -4.88, 0, null])('%s, spelled out', (value) => {
    const { container } = render(<Delta value={value} verbose suffix={suffix} />);
    expectSameAsFrame(container, delta(words, value, suffix));
  });

  it.each([8.05, -5.68, 0.001, null])('%s, as a signed number', (value) => {
    const { container } = render(<Delta value={value} />);
    expectSameAsFrame(container, delta(words, value));
  });
});
