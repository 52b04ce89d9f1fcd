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
