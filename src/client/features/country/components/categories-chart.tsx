import type { CSSProperties } from 'react';
import { formatScore } from '../../../lib/format';
import { t } from '../../../lib/i18n';
import { axisSteps, stepDecimals } from '../utils/bar-axis';
import { formatWeight, type CategoryRow } from '../utils/category-rows';

/** A share of the axis as a CSS length: `--at` places bars, their figures and the grid. */
const at = (value: number, top: number): CSSProperties =>
  ({ '--at': `${(Math.max(0, value) / top) * 100}%` }) as CSSProperties;

/**
 * Each category's score as a bar split into its standing (static) part, grey, and its active
 * part, teal, highest first, weight in the label. The table view carries the same numbers for
 * screen readers and copying, so the drawing is hidden from assistive technology; a pointer's
 * hover shows a row's figures (its title).
 *
 * Drawn in HTML and CSS (styles/country.css), not with the charting library: ten bars need no
 * library, and that one, with its measuring of every label, cost a phone's country page about a
 * second of main thread at 4x CPU (docs/benchmarks.md, 1 Dec 2026). On a phone each label stands
 * above its bar, which then has the whole width.
 */
export function CategoriesChart({ rows }: { rows: readonly CategoryRow[] }) {
  const steps = axisSteps(Math.max(...rows.map((row) => (row.static ?? 0) + (row.active ?? 0))));
  const top = steps.at(-1)!;
  const stepDigits = stepDecimals(steps);
  return (
    <div className="categories-chart" aria-hidden="true">
      <div className="bars">
        <div className="bar-grid" style={{ gridRow: `1 / span ${rows.length}` }}>
          {steps.map((step) => (
            <span key={step} style={at(step, top)} />
          ))}
        </div>
        {rows.map((row) => (
          <CategoryBar key={row.key} row={row} top={top} />
        ))}
        <div className="bar-axis">
          {steps.map((step) => (
            <span key={step} style={at(step, top)}>
              <span>{formatScore(step, stepDigits)}</span>
            </span>
          ))}
        </div>
      </div>
      <ul className="bar-legend">
        <li>
          <span className="swatch bar-static" /> {t('why.static')}
        </li>
        <li>
          <span className="swatch bar-active" /> {t('why.active')}
        </li>
      </ul>
    </div>
  );
}

/** One category: its label, its two parts end to end, and its score after them. */
function CategoryBar({ row, top }: { row: CategoryRow; top: number }) {
  const label = `${row.label} (${formatWeight(row.weight)})`;
  const figures =
    `${label}: ${t('categories.tooltipScore', { score: formatScore(row.score) })}; ` +
    `${t('why.static')} ${formatScore(row.static)}, ${t('why.active')} ${formatScore(row.active)}`;
  return (
    <div className="bar-row" title={figures}>
      {/* The category's name is the provider's (as in the table), not a message of ours. */}
      <span className="bar-label">
        <span translate="no">{row.label}</span> ({formatWeight(row.weight)})
      </span>
      <span className="bar-track">
        <span className="bar-static" style={at(row.static ?? 0, top)} />
        <span className="bar-active" style={at(row.active ?? 0, top)} />
        <span className="bar-score">{formatScore(row.score)}</span>
      </span>
    </div>
  );
}
