import { direction, formatScore, formatSigned, na } from '../lib/format';
import { t } from '../lib/i18n';

const WORDS = {
  up: 'delta.up',
  down: 'delta.down',
  flat: 'delta.flat',
  unknown: 'delta.unknown',
} as const;
const VERBOSE = {
  up: 'delta.verboseUp',
  down: 'delta.verboseDown',
  flat: 'delta.verboseFlat',
} as const;
const ARROWS = { up: '\u25b2', down: '\u25bc', flat: '\u25ac', unknown: '' };

/**
 * A change in risk: sign, arrow, colour and a word, so it never relies on colour alone. Rising
 * risk is the bad direction (purple), falling the good one (green): a palette of its own, so a
 * change is never read as a tier (red to blue) or a chart series (grey, teal).
 */
export function Delta({
  value,
  digits = 2,
  suffix,
  verbose = false,
}: {
  value: number | null | undefined;
  digits?: number;
  /** Appended after the number, e.g. "vs yesterday". */
  suffix?: string;
  /** Spell the direction out ("Up 1.20 vs yesterday") instead of a signed number. */
  verbose?: boolean;
}) {
  const dir = direction(value, digits);
  if (dir === 'unknown' || value === null || value === undefined) {
    return <span className="delta delta-unknown">{na()}</span>;
  }
  const tail = suffix ? ` ${suffix}` : '';
  if (verbose) {
    const words = t(VERBOSE[dir], { amount: formatScore(Math.abs(value), digits) });
    return (
      <span className={`delta delta-${dir} delta-words`}>
        <span aria-hidden="true">{`${ARROWS[dir]} `}</span>
        {`${words}${tail}`}
      </span>
    );
  }
  return (
    <span className={`delta delta-${dir}`}>
      <span aria-hidden="true">{`${ARROWS[dir]} `}</span>
      <span className="visually-hidden">{`${t(WORDS[dir])} `}</span>
      {`${formatSigned(value, digits)}${tail}`}
    </span>
  );
}
