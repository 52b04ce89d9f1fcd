/**
 * An HTTP `Retry-After` value in milliseconds from `now`: delay-seconds (digits only) or an HTTP
 * date (a past date is 0). Null when the value is absent or neither. The one parser of the
 * header: the BFF reads it from the upstream and from webhook receivers, the SPA from the BFF.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | null {
  if (value === null || value === undefined) return null;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
