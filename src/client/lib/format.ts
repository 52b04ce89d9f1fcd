/**
 * Formatting for people. Missing values read "n/a" everywhere (the API's optional fields may be
 * absent or null); times are shown in UTC, the clock the data's batches run on.
 */
export const NA = 'n/a';

const numberFormats = new Map<number, Intl.NumberFormat>();
function numberFormat(digits: number): Intl.NumberFormat {
  let format = numberFormats.get(digits);
  if (!format) {
    format = new Intl.NumberFormat('en-GB', {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    numberFormats.set(digits, format);
  }
  return format;
}

function isNumber(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** A score with a fixed number of decimals (risk: 2), or "n/a". */
export function formatScore(value: number | null | undefined, digits = 2): string {
  return isNumber(value) ? numberFormat(digits).format(value) : NA;
}

export function formatInteger(value: number | null | undefined): string {
  return isNumber(value) ? numberFormat(0).format(value) : NA;
}

/** A signed change: "+1.20", "−0.50" (true minus sign), "0.00". */
export function formatSigned(value: number | null | undefined, digits = 2): string {
  if (!isNumber(value)) return NA;
  const text = numberFormat(digits).format(Math.abs(value));
  if (Number(text.replace(/,/g, '')) === 0) return numberFormat(digits).format(0);
  return value > 0 ? `+${text}` : `\u2212${text}`;
}

export type Direction = 'up' | 'down' | 'flat' | 'unknown';

/** Direction of a change as shown (a change that rounds to zero is flat). */
export function direction(value: number | null | undefined, digits = 2): Direction {
  if (!isNumber(value)) return 'unknown';
  const rounded = Number(value.toFixed(digits));
  return rounded > 0 ? 'up' : rounded < 0 ? 'down' : 'flat';
}

/** `snake_case` or `kebab-case` labels from the API, made readable; never interpreted. */
export function humanise(label: string | null | undefined): string {
  if (!label) return NA;
  const words = label.replace(/[_-]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : NA;
}

function parseTime(iso: string | null | undefined): Date | null {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

const utcTime = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const utcDateTime = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** "10:00 UTC" */
export function formatUtcTime(iso: string | null | undefined): string {
  const date = parseTime(iso);
  return date ? `${utcTime.format(date)} UTC` : NA;
}

/** "2 Jun 2025, 10:00 UTC" */
export function formatUtcDateTime(iso: string | null | undefined): string {
  const date = parseTime(iso);
  return date ? `${utcDateTime.format(date)} UTC` : NA;
}

/** "just now", "5 min ago", "2 h ago", "3 d ago"; "in 40 min" for the future. */
export function formatRelative(iso: string | null | undefined, now: number = Date.now()): string {
  const date = parseTime(iso);
  if (!date) return NA;
  const diffMs = date.getTime() - now;
  const future = diffMs > 0;
  const minutes = Math.round(Math.abs(diffMs) / 60_000);
  if (minutes < 1) return future ? 'in under a minute' : 'just now';
  let amount: string;
  if (minutes < 60) amount = `${minutes} min`;
  else if (minutes < 48 * 60) amount = `${Math.round(minutes / 60)} h`;
  else amount = `${Math.round(minutes / (24 * 60))} d`;
  return future ? `in ${amount}` : `${amount} ago`;
}

/** "10:00 UTC · 2 h ago": the clock time and how long ago, as analysts read batch times. */
export function formatWhen(iso: string | null | undefined, now: number = Date.now()): string {
  const date = parseTime(iso);
  if (!date) return NA;
  const sameDay = Math.abs(date.getTime() - now) < 20 * 60 * 60_000;
  const clock = sameDay ? formatUtcTime(iso) : formatUtcDateTime(iso);
  return `${clock} · ${formatRelative(iso, now)}`;
}

/** For sorting events: newest first, unreadable timestamps last. */
export function timeValue(iso: string | null | undefined): number {
  return parseTime(iso)?.getTime() ?? Number.NEGATIVE_INFINITY;
}

/** Case- and accent-insensitive text for search ("cote" finds "Côte d'Ivoire"). */
export function searchKey(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}
