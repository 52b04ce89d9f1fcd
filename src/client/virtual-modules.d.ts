/** See scripts/vite/common-country-names.ts: ISO alpha-3 → short common name. */
declare module 'virtual:common-country-names' {
  const names: Readonly<Record<string, string>>;
  export default names;
}
