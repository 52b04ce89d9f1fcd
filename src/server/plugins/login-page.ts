/** Text for HTML: a provider's error text or a person's e-mail is never markup. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Every sign-in page: plain HTML, no script (the CSP allows none inline), styles inline. */
function frame(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Global Risk Dashboard</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { display: grid; place-items: center; min-height: 100vh; margin: 0; }
  form, main > p { width: min(22rem, 90vw); }
  form { display: grid; gap: .75rem; }
  input, button { font: inherit; padding: .5rem .75rem; }
  .error { color: #b00020; }
  @media (prefers-color-scheme: dark) { .error { color: #ff8a80; } }
</style>
</head>
<body>
<main>
<h1>Global Risk Dashboard</h1>
${body}
</main>
</body>
</html>
`;
}

/** The dashboard-token sign-in form; `returnTo` (checked by returnPath) is where it leads. */
export function loginPage(failed: boolean, returnTo = '/'): string {
  const keep =
    returnTo === '/'
      ? ''
      : `\n  <input type="hidden" name="return_to" value="${escapeHtml(returnTo)}">`;
  return frame(
    'Sign in',
    `<form method="post" action="/login">${keep}
  <label for="token">Dashboard token</label>
  <input id="token" name="token" type="password" autocomplete="current-password" required autofocus>
  ${failed ? '<p class="error" role="alert">That token is not valid.</p>' : ''}
  <button type="submit">Sign in</button>
</form>`,
  );
}

/** A sign-in that did not complete: what went wrong in plain words, and a way to start again. */
export function signInProblemPage(problem: string): string {
  return frame(
    'Sign-in failed',
    `<p class="error" role="alert">Sign-in did not complete: ${escapeHtml(problem)}</p>
<p><a href="/auth/login">Start signing in again</a></p>`,
  );
}

export function signedOutPage(): string {
  return frame(
    'Signed out',
    `<p role="status">You are signed out.</p>
<p><a href="/auth/login">Sign in again</a></p>`,
  );
}
