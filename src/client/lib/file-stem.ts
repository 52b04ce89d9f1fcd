/** A file-name-safe stem: "global-index-30d" (without the CSV code, so any chunk can use it). */
export function fileStem(...parts: string[]): string {
  return parts
    .join('-')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
}
