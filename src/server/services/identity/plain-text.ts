/*
 * Text from outside (a provider's error words, a person's name, a token's name) as the audit log
 * and the admin's pages may keep it: no control characters (a line break forges a log line) and
 * no bidirectional overrides (they make "gpj.exe" read "exe.jpg" on screen).
 */

/** C0 and C1 controls, DEL, the line and paragraph separators. */
const CONTROL = /[\p{Cc}\u2028\u2029]/u;
/** Bidirectional marks, embeddings, overrides and isolates (Unicode TR9). */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const CONTROL_OR_BIDI_ALL = new RegExp(`${CONTROL.source}|${BIDI.source}`, 'gu');
/** A spreadsheet reads a cell that starts so as a formula (`=HYPERLINK(…)`, `-2+3+cmd|…`). */
const FORMULA_START = /^[=+\-@]/;

/** True when the text holds a control or a bidirectional character. */
export function hasControlOrBidi(text: string): boolean {
  return CONTROL.test(text) || BIDI.test(text);
}

/**
 * The text without controls and bidirectional characters, leading spaces dropped, a formula's
 * first character neutralised with a leading `'`, cut to `max` characters (whole code points).
 */
export function plainText(text: string, max = 200): string {
  const cleaned = text.replace(CONTROL_OR_BIDI_ALL, ' ').replace(/\s+/g, ' ').trim();
  const safe = FORMULA_START.test(cleaned) ? `'${cleaned}` : cleaned;
  const points = Array.from(safe);
  return points.length > max ? `${points.slice(0, max - 1).join('')}…` : safe;
}
