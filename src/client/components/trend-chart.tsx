import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceArea,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { TIER_BANDS, TIER_COLOURS } from '../../shared/tiers';
import { formatScore, formatUtcDateTime, formatUtcDay } from '../lib/format';
import { tierWord } from '../lib/tier-words';

/** One line: the key of its values in each row, its name in the legend, and how it is drawn. */
export interface TrendSeries {
  key: string;
  label: string;
  colour: string;
  /** A dash pattern, so lines differ by more than colour (compare draws up to six). */
  dash?: string;
  width?: number;
}

/** A labelled rule across the chart at time `t` (epoch ms): a provider's method change. */
export interface TrendMark {
  t: number;
  label: string;
}

/** `t` is epoch ms; series values may be missing (a gap in the line, not a zero). */
export type TrendRow = { t: number } & Record<string, number | null>;

const SCALE_MAX = 100;

/** Tier bands as [low, high) ranges of the 0–100 scale, highest first. */
function bandRanges() {
  return TIER_BANDS.map((band, i) => ({
    tier: band.tier,
    from: band.min,
    to: i === 0 ? SCALE_MAX : (TIER_BANDS[i - 1]?.min ?? SCALE_MAX),
  }));
}

/**
 * Scores over time on the 0–100 scale, optionally over the tier bands (critical 75+, high 60–74,
 * moderate 40–59, low below 40). Loaded lazily with recharts: the overview's first paint never
 * waits for it. The table view next to it (ChartFrame) is the accessible form of the numbers.
 */
export function TrendChart({
  rows,
  series,
  bands = false,
  height = 260,
  marks = [],
}: {
  rows: readonly TrendRow[];
  series: readonly TrendSeries[];
  bands?: boolean;
  height?: number;
  marks?: readonly TrendMark[];
}) {
  return (
    <div className="trend-chart" aria-hidden="true">
      <ResponsiveContainer width="100%" height={height}>
        <LineChart
          // A point without a readable time cannot be placed on the axis.
          data={rows.filter((row) => Number.isFinite(row.t))}
          margin={{ top: 8, right: 12, bottom: 4, left: -12 }}
          accessibilityLayer={false}
        >
          {bands
            ? bandRanges().map((band) => (
                <ReferenceArea
                  key={band.tier}
                  y1={band.from}
                  y2={band.to}
                  fill={TIER_COLOURS[band.tier].fill}
                  fillOpacity={0.14}
                  stroke="none"
                  ifOverflow="hidden"
                  label={{
                    value: tierWord(band.tier),
                    position: 'insideTopRight',
                    className: 'band-label',
                  }}
                />
              ))
            : null}
          <CartesianGrid vertical={false} className="chart-grid" />
          <XAxis
            dataKey="t"
            type="number"
            scale="time"
            domain={['dataMin', 'dataMax']}
            // The page language's months (issue 34): "2 juin", "2 يونيو", not "2 Jun".
            tickFormatter={(t: number) => formatUtcDay(t)}
            minTickGap={24}
            className="chart-axis"
          />
          <YAxis
            domain={bands ? [0, SCALE_MAX] : ['auto', 'auto']}
            ticks={bands ? [0, 40, 60, 75, 100] : undefined}
            tickLine={false}
            className="chart-axis"
          />
          <Tooltip
            labelFormatter={(t) => formatUtcDateTime(new Date(Number(t)).toISOString())}
            formatter={(value) => formatScore(typeof value === 'number' ? value : null)}
            wrapperClassName="chart-tooltip"
          />
          {marks.map((mark) => (
            <ReferenceLine
              key={mark.t}
              x={mark.t}
              stroke="#000000"
              strokeDasharray="4 3"
              strokeWidth={2}
              ifOverflow="hidden"
              label={{ value: mark.label, position: 'insideBottomRight', className: 'method-mark' }}
            />
          ))}
          <Legend wrapperStyle={{ paddingTop: 4 }} itemSorter={null} />
          {series.map((line) => (
            <Line
              key={line.key}
              type="monotone"
              dataKey={line.key}
              name={line.label}
              stroke={line.colour}
              strokeWidth={line.width ?? 2}
              strokeDasharray={line.dash}
              dot={rows.length <= 2}
              connectNulls={false}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
