/**
 * Hears which of `selectors` each task's DOM changes added: a MutationObserver delivers its
 * records once per task, so a drawing committed in steps (useStagedSteps) is heard once per
 * step, and one committed at once in a single batch. `stop()` disconnects it.
 */
export function hearPerTask(selectors: readonly string[]): { heard: string[][]; stop: () => void } {
  const heard: string[][] = [];
  const observer = new MutationObserver((records) => {
    const added = records.flatMap((record) => [...record.addedNodes]);
    const has = (selector: string) =>
      added.some(
        (node) =>
          node instanceof Element && (node.matches(selector) || node.querySelector(selector)),
      );
    heard.push(selectors.filter((selector) => has(selector)));
  });
  observer.observe(document.body, { childList: true, subtree: true });
  return { heard, stop: () => observer.disconnect() };
}

/** The first batch in which `selector` was heard (-1: never). */
export const firstHeard = (heard: string[][], selector: string): number =>
  heard.findIndex((batch) => batch.includes(selector));
