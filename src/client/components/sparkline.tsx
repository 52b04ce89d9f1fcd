import { formatScore } from '../lib/format';
import { t } from '../lib/i18n';

/**
 * A small trend line (SVG, no chart library): the values in order, oldest first. With `scale`,
 * the highest and lowest values are written beside the line's top and bottom (a brief on paper
 * has no tooltip to tell how far the line moves).
 */
export function Sparkline({
  values,
  label,
  width = 96,
  height = 24,
  scale = false,
}: {
  values: ReadonlyArray<number | null>;
  label: string;
  width?: number;
  height?: number;
  scale?: boolean;
}) {
  const points = values.filter((v): v is number => v !== null);
  if (points.length < 2)
    return <span className="sparkline-empty">{t('problems.notEnoughHistory', { label })}</span>;
  const min = Math.min(...points);
  const max = Math.max(...points);
  const span = max - min || 1;
  const step = width / (points.length - 1);
  const path = points
    .map(
      (v, i) =>
        `${(i * step).toFixed(1)},${(height - 2 - ((v - min) / span) * (height - 4)).toFixed(1)}`,
    )
    .join(' ');
  const line = (
    <svg
      className="sparkline"
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={
        scale
          ? t('problems.sparklineRange', { label, min: formatScore(min), max: formatScore(max) })
          : label
      }
    >
      <polyline points={path} fill="none" stroke="currentColor" strokeWidth="1.5" />
    </svg>
  );
  if (!scale) return line;
  return (
    <span className="sparkline-scaled">
      {line}
      <span className="sparkline-scale" aria-hidden="true" style={{ height }}>
        <span className="sparkline-max">{formatScore(max)}</span>
        <span className="sparkline-min">{formatScore(min)}</span>
      </span>
    </span>
  );
}
