/**
 * Text people type that others will read (watchlist names): shown in the SPA, Slack, e-mail
 * subjects and CSV files. Characters that read as nothing, or that reorder what follows, would
 * let a name look like another name or hide what it says, so they are refused, not stored.
 */

/**
 * Control characters (C0, DEL, C1), format characters (bidi embeddings and overrides
 * U+202A–U+202E, isolates U+2066–U+2069, zero-width U+200B–U+200F, U+2060, U+FEFF, soft hyphen),
 * line and paragraph separators, surrogates, private-use and unassigned code points, and the
 * blank Hangul fillers that render as empty space.
 */
const REFUSED = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\u115F\u1160\u3164\uFFA0]/u;

/** U+202E */
function codePoint(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Null when `text` may be stored as typed; otherwise one sentence naming `field`, the character
 * and its position (1-based), e.g. `name must not contain control, bidirectional or invisible
 * characters (U+202E at position 4)`.
 */
export function userTextProblem(field: string, text: string): string | null {
  let position = 0;
  for (const char of text) {
    position += 1;
    if (REFUSED.test(char)) {
      return `${field} must not contain control, bidirectional or invisible characters (${codePoint(char)} at position ${position})`;
    }
  }
  return null;
}

/**
 * Control characters (NUL, ESC, DEL, C1: line breaks only where `lineBreaks` allows them) and
 * the characters that reorder text (U+061C, U+200E/F, the embeddings and overrides U+202A–E,
 * the isolates U+2066–9).
 */
const NEVER_IN_INPUT = /[\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
const LINE_BREAKS = /^[\t\n\r]$/;

/**
 * The one text rule every value a request carries passes, before any route or store sees it:
 * each query and path parameter (route-schema.ts) and each string of a JSON body, its keys too
 * (plugins/json-body.ts, where tabs and line breaks are allowed). PostgreSQL refuses a NUL in
 * text outright (a 500 before this rule), and a bidi control makes a value read as another.
 * Null when `text` passes; otherwise one sentence naming `field`, the character and its position.
 */
export function inputTextProblem(field: string, text: string, lineBreaks = false): string | null {
  let position = 0;
  for (const char of text) {
    position += 1;
    if (NEVER_IN_INPUT.test(char) && !(lineBreaks && LINE_BREAKS.test(char))) {
      return `${field} must not contain control or bidirectional characters (${codePoint(char)} at position ${position})`;
    }
  }
  return null;
}

/**
 * Characters that reorder the text after them (embeddings, overrides, isolates, marks): dropped
 * from every value an alert message carries (upstream headlines and names, list names stored
 * before names were checked), so a headline cannot make the rest of an e-mail or a card read
 * backwards.
 */
export function withoutBidi(value: string): string {
  return value.replace(/[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g, '');
}
