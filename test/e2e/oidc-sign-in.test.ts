import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret } from '../../src/server/secret.js';
import { freePort } from '../helpers/free-port.js';
import { startTestProvider, type TestProvider } from '../helpers/oidc-provider.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { launchChromium, openPage, screenshotPath, spaDrawn, type WatchedPage } from './browser.js';

/*
 * The whole OpenID Connect sign-in in Chromium (issue 21) against a real provider (oidc-provider)
 * on loopback: the provider is `localhost`, the dashboard `127.0.0.1`, so their cookies stay apart.
 * A viewer signs in (role from the group claim), is refused a team write with a 403 in plain
 * words and sees no controls for it, signs out (here and at the provider); an editor may write;
 * an admin's audit log names each of them with what they did.
 */
let provider: TestProvider;
let stack: Stack;
let browser: Browser;
let app: string;
const pages: WatchedPage[] = [];

beforeAll(async () => {
  const port = await freePort();
  app = `http://127.0.0.1:${port}`;
  provider = await startTestProvider(app);
  stack = await startStack({
    port,
    config: {
      history: { databaseUrl: null, retentionDays: null },
      access: {
        dashboardToken: null,
        trustedProxyAuthHeader: null,
        allowAnonymous: false,
        oidc: {
          issuerUrl: provider.issuer,
          clientId: provider.clientId,
          clientSecret: new Secret(provider.clientSecret),
          redirectUrl: `${app}/auth/callback`,
          roleClaim: 'groups',
          allowedEmailDomains: [],
        },
        roles: { editors: ['risk-editors'], admins: ['risk-admins'] },
      },
    },
  });
  browser = await launchChromium();
});
afterAll(async () => {
  for (const watched of pages) await watched.close();
  await browser?.close();
  await stack?.close();
  await provider?.close();
});

async function open(): Promise<WatchedPage> {
  const watched = await openPage(browser);
  pages.push(watched);
  return watched;
}

/** From a page of the dashboard: the provider's login form, then its consent page, then back. */
async function signIn(page: Page, path: string, login: string): Promise<void> {
  await page.goto(`${app}${path}`);
  await page.waitForURL((url) => url.origin === provider.issuer);
  await page.fill('input[name=login]', login);
  await page.fill('input[name=password]', 'any password');
  await page.click('button[type=submit]');
  await page.locator('button[type=submit]').first().click();
  await page.waitForURL(`${app}${path}`);
  // The page as the SPA draws it: the server's title bar (its user menu too) gone.
  await spaDrawn(page);
}

/** A write from the page itself, with its session cookie: what a crafted click would send. */
function postTeamList(
  page: Page,
): Promise<{ status: number; body: { ok: boolean; error?: string } }> {
  return page.evaluate(async () => {
    const response = await fetch('/api/watchlists', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Team Sahel', countries: ['MLI', 'NER'] }),
    });
    return {
      status: response.status,
      body: (await response.json()) as { ok: boolean; error?: string },
    };
  });
}

describe('signing in with the identity provider', () => {
  it('a viewer signs in, is refused a team write in plain words, sees no such controls, signs out', async () => {
    const { page, foreignRequests, errors } = await open();
    await signIn(page, '/watchlists', 'vera');

    await page.locator('.user-menu summary', { hasText: 'Vera Viewer (viewer)' }).click();
    await expect.poll(() => page.getByText('Signed in as').textContent()).toContain('viewer');
    // The UI offers a viewer only what a viewer may do: a personal list, no webhook.
    await page.getByRole('heading', { name: 'New personal watchlist' }).waitFor();
    expect(await page.getByLabel(/Webhook URL/).count()).toBe(0);
    // Nor the audit log, which is an admin's.
    expect(await page.getByRole('link', { name: 'Audit log', exact: true }).count()).toBe(0);

    const refused = await postTeamList(page);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(
      /^Your role \(viewer\) may not change the team's watchlists: it needs an editor or above/,
    );
    await page.screenshot({ path: screenshotPath('oidc-viewer') });

    await page.getByRole('button', { name: 'Sign out' }).click();
    // The provider asks to confirm its own sign-out, then sends the browser back here.
    await page.waitForURL((url) => url.origin === provider.issuer);
    await page.getByRole('button', { name: /sign me out/i }).click();
    await page.waitForURL(`${app}/auth/signed-out`);
    await page.getByText('You are signed out.').waitFor();
    const after = await page.evaluate(async () => (await fetch('/api/me')).status);
    expect(after).toBe(401);
    // The provider's development pages ask for a web font; the dashboard's own pages ask nothing.
    expect(
      foreignRequests.filter((url) => !url.startsWith('https://fonts.googleapis.com/')),
    ).toEqual([]);
    expect(errors.filter((e) => !e.includes('401'))).toEqual([]);
  });

  it('an editor signs in and may make a team list', async () => {
    const { page } = await open();
    await signIn(page, '/watchlists', 'eddie');
    await page.getByRole('heading', { name: 'New watchlist' }).waitFor();
    expect(await page.getByLabel(/Webhook URL/).count()).toBe(1);
    const made = await postTeamList(page);
    expect(made.status).toBe(201);
    await page.reload();
    await page.getByRole('link', { name: 'Team Sahel' }).waitFor();
  });

  it("an admin's audit log names each person: sign-ins, the editor's write, the viewer's refusal", async () => {
    const { page } = await open();
    await signIn(page, '/admin/audit?who=Eddie', 'ada');
    await page.getByRole('link', { name: 'Audit log', exact: true }).waitFor();
    // In plain words, the person by name and by e-mail (issue 33, point 13).
    const row = page
      .getByRole('row')
      .filter({ hasText: 'Eddie Editor created a watchlist' })
      .filter({ hasText: 'eddie@example.com' });
    await row.first().waitFor();
    expect(await row.first().textContent()).toContain('Done (201)');
    await page.screenshot({ path: screenshotPath('oidc-audit-log') });

    const entries = (query: string) =>
      page.evaluate(async (q) => {
        const answer = await fetch(`/api/audit?${q}`);
        return ((await answer.json()) as { entries: { who: { name: string }; status: number }[] })
          .entries;
      }, query);
    const refused = await entries('who=Vera&action=POST%20/api/watchlists');
    expect(refused.map((e) => [e.who.name, e.status])).toEqual([['Vera Viewer', 403]]);
    const signIns = (await entries('action=sign-in')).map((e) => e.who.name);
    expect(signIns).toEqual(expect.arrayContaining(['Vera Viewer', 'Eddie Editor', 'Ada Admin']));
    const signOuts = (await entries('action=sign-out')).map((e) => e.who.name);
    expect(signOuts).toContain('Vera Viewer');
  });
});
