/** A small trend line (SVG, no chart library): the values in order, oldest first. */
export function Sparkline({
  values,
  label,
  width = 96,
  height = 24,
}: {
  values: ReadonlyArray<number | null>;
  label: string;
  width?: number;
  height?: number;
}) {
  const points = values.filter((v): v is number => v !== null);
  if (points.length < 2)
    return <span className="sparkline-empty">{label}: not enough history</span>;
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
  return (
    <svg
      className="sparkline"
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={label}
    >
      <polyline points={path} fill="none" stroke="currentColor" strokeWidth="1.5" />
    </svg>
  );
}
