/**
 * The one date rule: every time a request names (`as_of`, `from`, `to`, `since`, `before`, a
 * trip's dates) is a real calendar date (2026-02-30 and 24:00 are not; JavaScript's Date.parse
 * takes both and moves on to the next day), from 1970 to 9999. Year 0 parsed and then broke the
 * store (PostgreSQL has no year 0: a 500); nothing this dashboard holds is older than 1970.
 */
export const ISO_TIME =
  /^(\d{4})-(\d\d)-(\d\d)(?:T(\d\d):(\d\d)(?::(\d\d)(?:\.\d{1,9})?)?(Z|[+-](\d\d):(\d\d)))?$/;
export const EARLIEST_TIME = Date.UTC(1970, 0, 1);
export const LATEST_TIME = Date.UTC(10000, 0, 1) - 1;

const daysIn = (year: number, month: number): number =>
  new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The time `text` names (ms since the epoch), or null when it is not one the rule takes. */
export function readTime(text: string): number | null {
  const match = ISO_TIME.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  const fields = [match[4], match[5], match[6], match[8], match[9]].map((f) => Number(f ?? 0));
  const [hour, minute, second, offsetHours, offsetMinutes] = fields as [
    number,
    number,
    number,
    number,
    number,
  ];
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59)
    return null;
  const ms = Date.parse(text);
  if (Number.isNaN(ms) || ms < EARLIEST_TIME || ms > LATEST_TIME) return null;
  return ms;
}
