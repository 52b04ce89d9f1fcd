import type { BrowserContext } from 'playwright-core';
import { MODE_TOKEN, credentialsFor, modeOfUrl, modeOriginsNow } from '../helpers/auth-modes.js';

/*
 * Browser tests in TEST_AUTH_MODE=token|proxy: each client reaches a stack started in a mode
 * (stack.ts, history-stack.ts) the way that mode's clients do. Scripts (the tests' own fetch)
 * send the token or the proxy's headers; a browser signs in with the token on the sign-in form
 * (its session cookie then rides along) or, behind the proxy, reaches the stack through the
 * identity proxy (identity-proxy.ts), which adds the proxy's headers to every request.
 */

/** Makes this file's `fetch` send a mode's admin credentials to the stacks started in it. */
export function installModeFetch(): void {
  const bare = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const mode = modeOfUrl(input instanceof Request ? input.url : String(input));
    if (mode === 'open') return bare(input, init);
    const headers = new Headers(input instanceof Request ? input.headers : undefined);
    new Headers(init?.headers).forEach((value, name) => headers.set(name, value));
    // A request's own headers win, as in the server tests' inject (auth-modes.ts).
    for (const [name, value] of Object.entries(credentialsFor(mode))) {
      if (!headers.has(name)) headers.set(name, value);
    }
    return bare(input, { ...init, headers });
  };
}

/** Signs `context` in on every token-mode stack's sign-in form, as a person would. */
export async function signInForMode(context: BrowserContext): Promise<void> {
  for (const [origin, mode] of modeOriginsNow()) {
    if (mode !== 'token') continue;
    const answer = await context.request.post(`${origin}/login`, {
      form: { token: MODE_TOKEN },
      headers: { origin },
      maxRedirects: 0,
    });
    if (answer.status() !== 303) {
      throw new Error(`Sign-in at ${origin}/login answered ${answer.status()}, not 303`);
    }
  }
}
