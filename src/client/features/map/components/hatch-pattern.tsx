/**
 * The hatch that marks countries with no current data. Leaflet draws into an inline SVG in this
 * document, so CSS can fill those paths with `url(#nodata-hatch)` defined here once.
 */
export function HatchPattern() {
  return (
    <svg className="svg-defs" aria-hidden="true" focusable="false" width="0" height="0">
      <defs>
        <pattern
          id="nodata-hatch"
          width="6"
          height="6"
          patternUnits="userSpaceOnUse"
          patternTransform="rotate(45)"
        >
          <rect className="hatch-bg" width="6" height="6" />
          <line className="hatch-line" x1="0" y1="0" x2="0" y2="6" strokeWidth="2" />
        </pattern>
      </defs>
    </svg>
  );
}
