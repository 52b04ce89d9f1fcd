/** A moment as a person's wall clock shows it in their IANA time zone. */
export interface LocalClock {
  /** `YYYY-MM-DD` */
  day: string;
  /** Minutes after local midnight. */
  minutes: number;
}

export function localClock(at: number, timeZone: string): LocalClock {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(at));
  const part = (type: string): string => parts.find((p) => p.type === type)?.value ?? '00';
  return {
    day: `${part('year')}-${part('month')}-${part('day')}`,
    minutes: Number(part('hour')) * 60 + Number(part('minute')),
  };
}

export const clockMinutes = (hhmm: string): number =>
  Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

export const minutesClock = (minutes: number): string =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/**
 * When quiet hours [start, end) in `timeZone` end, if `at` falls in them (they may span
 * midnight); null outside them. Counted in local minutes from `at`: on a day the clocks change
 * this may be an hour off, and the sender then looks again and holds once more if still quiet.
 */
export function quietUntil(
  at: number,
  timeZone: string,
  start: number,
  end: number,
): number | null {
  const { minutes } = localClock(at, timeZone);
  const quiet = start < end ? minutes >= start && minutes < end : minutes >= start || minutes < end;
  if (!quiet) return null;
  const wait = (end - minutes + 1440) % 1440;
  const startOfMinute = at - (at % 60_000);
  return startOfMinute + wait * 60_000;
}
