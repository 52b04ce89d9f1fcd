/** A placeholder block while data loads; the label is read out instead of the pulsing box. */
export function Skeleton({
  label,
  lines = 3,
  height,
}: {
  label: string;
  lines?: number;
  height?: number;
}) {
  return (
    <div className="skeleton" role="status" aria-busy="true">
      <span className="visually-hidden">{label}</span>
      {height !== undefined ? (
        <div className="skeleton-block" style={{ height }} aria-hidden="true" />
      ) : (
        Array.from({ length: lines }, (_, i) => (
          <div key={i} className="skeleton-line" aria-hidden="true" />
        ))
      )}
    </div>
  );
}
