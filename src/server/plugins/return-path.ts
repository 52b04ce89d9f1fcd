/**
 * Where a sign-in returns to (issue 33, point 11: a shared link survives signing in): a path on
 * this site only (`/country/MLI?trend=7d`), so the return address cannot send anyone elsewhere
 * (no scheme, no `//host`, no `/\host`, no white space) nor back into the sign-in itself; `/`
 * otherwise. Used by the token's form and the OpenID Connect sign-in alike.
 */
export function returnPath(value: unknown): string {
  return typeof value === 'string' &&
    /^\/(?![/\\])[^\s]*$/.test(value) &&
    !value.startsWith('/auth/') &&
    !/^\/log(in|out)(?:[/?#]|$)/.test(value)
    ? value.slice(0, 2000)
    : '/';
}

/** `/login` with the path to return to, when there is one to keep. */
export function loginPath(returnTo: string): string {
  return returnTo === '/' ? '/login' : `/login?return_to=${encodeURIComponent(returnTo)}`;
}
