/** See scripts/vite/common-country-names.ts: ISO alpha-3 → short common name. */
declare module 'virtual:common-country-names' {
  const names: Readonly<Record<string, string>>;
  export default names;
  /** alpha-3 then alpha-2, space-separated: "AFGAF ALBAL …". */
  export const alpha2: string;
}

/** See scripts/vite/world-shapes.ts: the maps' country shapes (GeoJSON) as JSON text. */
declare module 'virtual:world-shapes' {
  const json: string;
  export default json;
}

/** See scripts/vite/tier-colours.ts: the tier colours as CSS custom properties on :root. */
declare module 'virtual:tier-colours.css';
