/**
 * The canonical JSON of a value (in the manner of RFC 8785): object keys sorted by UTF-16 code
 * units, no white space, numbers in ECMAScript's shortest round-trip form (`-0` as `0`, a
 * non-finite number as `null`), strings as `JSON.stringify` writes them, `undefined` members
 * left out. Equal content always gives the same text, whatever order its keys came in (JSONB
 * reorders them), so a digest of it can be recomputed by anyone holding the content.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return 'null';
    return Object.is(value, -0) ? '0' : JSON.stringify(value);
  }
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const members = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
    return `{${members.join(',')}}`;
  }
  return 'null';
}
