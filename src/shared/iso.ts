/** An ISO 3166-1 alpha-3 code as the API takes it: exactly three ASCII letters. */
export const ISO3_PATTERN = /^[A-Za-z]{3}$/;

export function isIso3(value: string): boolean {
  return ISO3_PATTERN.test(value);
}

/** The form used in cache keys and URLs. Call only after `isIso3`. */
export function normaliseIso3(value: string): string {
  return value.toUpperCase();
}
