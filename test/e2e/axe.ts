import type { Page } from 'playwright-core';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const AXE_PATH = require.resolve('axe-core/axe.min.js');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * The rules whose verdict depends on colours. The app's dark theme is CSS custom properties
 * alone (base.css), so a page already scanned whole in the light scheme is judged differently in
 * the dark one only by these: `inEachScheme` checks scan the dark scheme with them alone (a whole
 * scan costs its renderer about 0.7 s, and the browser lane is the suite's critical path).
 */
export const COLOUR_RULES = ['color-contrast', 'link-in-text-block'] as const;

export interface AxeOptions {
  /** Only the colour rules (COLOUR_RULES): a second scheme of a page scanned whole. */
  coloursOnly?: boolean;
  /** Only these rules (a test of one property, such as `target-size`). */
  rules?: string[];
}

/** Runs axe-core (injected from node_modules) and returns serious and critical violations. */
export async function seriousViolations(page: Page, options?: AxeOptions): Promise<AxeViolation[]> {
  return (await axeViolations(page, options)).filter(
    (v) => v.impact === 'serious' || v.impact === 'critical',
  );
}

/** Every violation of axe-core's default rules (or the colour rules), whatever its impact. */
export async function axeViolations(page: Page, options?: AxeOptions): Promise<AxeViolation[]> {
  // Injected once per document: a second scan of the same page reuses it.
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_PATH });
  const rules = options?.rules ?? (options?.coloursOnly ? [...COLOUR_RULES] : null);
  const violations = await page.evaluate(async (only) => {
    type Run = (ctx: Document, options?: object) => Promise<unknown>;
    const axe = (window as unknown as { axe: { run: Run } }).axe;
    const runOnly = only ? { runOnly: { type: 'rule', values: only } } : undefined;
    const result = (await axe.run(document, runOnly)) as {
      violations: {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: unknown[] }[];
      }[];
    };
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => JSON.stringify(n.target)),
    }));
  }, rules);
  return violations;
}
