/**
 * "2 h ago", "in 5 h", "just now": how far a time is from now, in the steps the screens use
 * (minutes under an hour, hours under two days, then days). English has its own short words (the
 * screens' fast path, no Intl); `locale` asks CLDR's words of another language instead. Shared by
 * the SPA (lib/format.ts) and the server's first frame, so both say the same thing.
 */
export function relativeWords(at: Date, now: number, locale: string | null): string {
  const diffMs = at.getTime() - now;
  const future = diffMs > 0;
  const minutes = Math.round(Math.abs(diffMs) / 60_000);
  if (locale !== null) return intlRelative(minutes, future, locale);
  if (minutes < 1) return future ? 'in under a minute' : 'just now';
  let amount: string;
  if (minutes < 60) amount = `${minutes} min`;
  else if (minutes < 48 * 60) amount = `${Math.round(minutes / 60)} h`;
  else amount = `${Math.round(minutes / (24 * 60))} d`;
  return future ? `in ${amount}` : `${amount} ago`;
}

const formats = new Map<string, Intl.RelativeTimeFormat>();

function intlRelative(minutes: number, future: boolean, locale: string): string {
  let format = formats.get(locale);
  if (!format) {
    format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'short' });
    formats.set(locale, format);
  }
  const sign = future ? 1 : -1;
  if (minutes < 60) return format.format(sign * minutes, 'minute');
  if (minutes < 48 * 60) return format.format(sign * Math.round(minutes / 60), 'hour');
  return format.format(sign * Math.round(minutes / (24 * 60)), 'day');
}
