import { rangeLabel, TREND_RANGES, type TrendRange } from '../utils/range';

export function RangePicker({
  value,
  onChange,
  label,
}: {
  value: TrendRange;
  onChange: (range: TrendRange) => void;
  /** "Trend range" */
  label: string;
}) {
  return (
    <div className="segmented" role="group" aria-label={label}>
      {TREND_RANGES.map((range) => (
        <button
          key={range}
          type="button"
          aria-pressed={value === range}
          onClick={() => onChange(range)}
        >
          {rangeLabel(range)}
        </button>
      ))}
    </div>
  );
}
