/** The sign-in page: plain HTML, no script (the CSP allows none inline), styles inline. */
export function loginPage(failed: boolean): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in · Global Risk Dashboard</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { display: grid; place-items: center; min-height: 100vh; margin: 0; }
  form { display: grid; gap: .75rem; width: min(22rem, 90vw); }
  input, button { font: inherit; padding: .5rem .75rem; }
  .error { color: #b00020; }
  @media (prefers-color-scheme: dark) { .error { color: #ff8a80; } }
</style>
</head>
<body>
<main>
<h1>Global Risk Dashboard</h1>
<form method="post" action="/login">
  <label for="token">Dashboard token</label>
  <input id="token" name="token" type="password" autocomplete="current-password" required autofocus>
  ${failed ? '<p class="error" role="alert">That token is not valid.</p>' : ''}
  <button type="submit">Sign in</button>
</form>
</main>
</body>
</html>
`;
}
