import {
  Bar,
  BarChart,
  CartesianGrid,
  LabelList,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { formatScore } from '../../../lib/format';
import { formatWeight, type CategoryRow } from '../utils/category-rows';
import { t } from '../../../lib/i18n';

/**
 * Neutral grey for the standing (static) part, teal for the active part: light against dark,
 * so they part with any colour vision, ≥ 3:1 on both themes, and neither is a tier colour (red
 * to blue) or a direction colour (purple, green).
 */
const STATIC_COLOUR = '#767676';
const ACTIVE_COLOUR = '#1a9988';
const ROW_HEIGHT = 34;

interface ChartRow {
  label: string;
  static: number;
  active: number;
  score: number | null;
  weight: number | null;
}

/**
 * Each category's score as a bar split into its static and active parts, highest first, weight
 * in the axis label. The table view carries the same numbers for screen readers and copying, so
 * the drawing itself is hidden from assistive technology.
 */
export function CategoriesChart({ rows }: { rows: readonly CategoryRow[] }) {
  const data: ChartRow[] = rows.map((row) => ({
    label: `${row.label} (${formatWeight(row.weight)})`,
    static: row.static ?? 0,
    active: row.active ?? 0,
    score: row.score,
    weight: row.weight,
  }));
  return (
    <div className="categories-chart" aria-hidden="true">
      <ResponsiveContainer width="100%" height={rows.length * ROW_HEIGHT + 60}>
        <BarChart
          data={data}
          layout="vertical"
          margin={{ top: 4, right: 44, bottom: 4, left: 4 }}
          // The table view is the accessible form of these numbers; the drawing stays out of the
          // tab order (it is aria-hidden).
          accessibilityLayer={false}
        >
          <CartesianGrid horizontal={false} className="chart-grid" />
          <XAxis type="number" domain={[0, 'auto']} tickLine={false} className="chart-axis" />
          <YAxis
            type="category"
            dataKey="label"
            width={170}
            tickLine={false}
            interval={0}
            className="chart-axis"
          />
          <Tooltip
            cursor={{ className: 'chart-cursor' }}
            formatter={(value) => formatScore(typeof value === 'number' ? value : null)}
            labelFormatter={(label, payload) => {
              const row = payload?.[0]?.payload as ChartRow | undefined;
              return row
                ? `${label}: ${t('categories.tooltipScore', { score: formatScore(row.score) })}`
                : String(label);
            }}
            wrapperClassName="chart-tooltip"
          />
          {/* In drawing order (static, then active), not alphabetical. */}
          <Legend wrapperStyle={{ paddingTop: 4 }} itemSorter={null} />
          <Bar
            dataKey="static"
            name={t('why.static')}
            stackId="score"
            fill={STATIC_COLOUR}
            isAnimationActive={false}
          />
          <Bar
            dataKey="active"
            name={t('why.active')}
            stackId="score"
            fill={ACTIVE_COLOUR}
            // No animation: numbers a reader compares should stand still, and the score labels
            // only appear once an animation ends.
            isAnimationActive={false}
          >
            <LabelList
              dataKey="score"
              position="right"
              className="chart-label"
              formatter={(value) => formatScore(typeof value === 'number' ? value : null)}
            />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
