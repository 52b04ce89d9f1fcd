import { ApiProblem } from '../refusals.js';

export { ApiProblem };

/** Parses an `If-Match` value into the version it names; null when it names none. */
export function parseIfMatch(header: string | undefined): number | null {
  const match = /^\s*(?:W\/)?"(\d{1,9})"\s*$/.exec(header ?? '');
  return match?.[1] ? Number(match[1]) : null;
}

/** 412: someone else changed `what` (a watchlist, a site) since the editor loaded it. */
export function editConflict(what: string): ApiProblem {
  return new ApiProblem(
    412,
    `The ${what} was changed by someone else since you loaded it: reload it and apply your change again`,
  );
}

/**
 * The version an edit of `what` may replace: its `If-Match` must name the current version, so
 * two people editing the same thing never silently overwrite each other (428 without one, 400
 * for a malformed one, 412 for an older one).
 */
export function requireVersion(
  ifMatch: string | undefined,
  currentVersion: number,
  what: string,
): number {
  if (ifMatch === undefined) {
    throw new ApiProblem(
      428,
      `If-Match is required: send the ETag of the ${what} you edited, so a concurrent change is not overwritten`,
    );
  }
  const version = parseIfMatch(ifMatch);
  if (version === null) throw new ApiProblem(400, 'If-Match must be an ETag such as "3"');
  if (version !== currentVersion) throw editConflict(what);
  return version;
}

/** The first problem zod found, as `path: message` (`fallback` when it names none). */
export function zodWords(
  error: { issues: Array<{ path: PropertyKey[]; message: string }> },
  fallback: string,
): string {
  const issue = error.issues[0];
  if (!issue) return fallback;
  const where = issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : '';
  return `${where}${issue.message}`;
}
