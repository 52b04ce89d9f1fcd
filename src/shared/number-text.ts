/**
 * Numbers as the screens write them, shared by the SPA (client/lib/format.ts) and the server's
 * first frame (services/rendering/frame-words.ts), so the frame's figures are the SPA's to the
 * character when it takes over.
 */

/**
 * The locale a language's numbers are written in (issue 34): English as `en-GB`; Arabic with
 * Latin digits (`-u-nu-latn`: the map's and charts' labels are in Latin digits too, and scores
 * compared across them must read the same); the others as themselves.
 */
export function numberLocale(language: string): string {
  if (language === 'ar') return 'ar-u-nu-latn';
  return language.startsWith('en') ? 'en-GB' : language;
}

/**
 * `value` with `digits` decimals, in `locale`'s convention: "1,234.50", "-0.50" in `en-GB`.
 * `en-GB` is written without Intl (the first Intl object a page creates costs Chromium 13–25 ms,
 * docs/benchmarks.md section 3): rounded half away from zero on the number's shortest decimal
 * form, as Intl does (toFixed rounds the binary value: 1.005 gives "1.00", Intl "1.01"); a
 * negative value that rounds to zero keeps its sign. Other locales, and what the fast path does
 * not cover, go through Intl (one formatter per digit count).
 */
export function fixedNumbers(locale: string): (value: number, digits: number) => string {
  const formats = new Map<number, Intl.NumberFormat>();
  const intl = (value: number, digits: number): string => {
    let format = formats.get(digits);
    if (!format) {
      format = new Intl.NumberFormat(locale, {
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      });
      formats.set(digits, format);
    }
    return format.format(value);
  };
  if (locale !== 'en-GB') return intl;
  return (value, digits) => {
    const magnitude = Math.abs(value);
    const decimal = String(magnitude);
    // Exponent forms, and values whose shifted digits would pass 2^53, are left to Intl.
    if (decimal.includes('e') || magnitude * 10 ** digits >= Number.MAX_SAFE_INTEGER) {
      return intl(value, digits);
    }
    const scaled = String(Math.round(Number(`${decimal}e${digits}`))).padStart(digits + 1, '0');
    const whole = scaled.slice(0, scaled.length - digits).replace(/\B(?=(\d{3})+$)/g, ',');
    const fraction = digits > 0 ? `.${scaled.slice(scaled.length - digits)}` : '';
    return `${value < 0 || Object.is(value, -0) ? '-' : ''}${whole}${fraction}`;
  };
}
