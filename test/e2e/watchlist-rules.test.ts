import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.js';
import { inEachScheme, pageOverflow, screenshotPath } from './browser.js';
import { browserSuite } from './suite.js';

// Issue 19, points 1, 2 and 8: alert rules in the watchlist form, countries chosen by name with
// every problem next to its field, and a search that forgives a typo and shows tier and risk.
const suite = browserSuite();

const PHONE = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true };
const DESKTOP = { viewport: { width: 1440, height: 900 } };

interface StoredList {
  id: string;
  name: string;
  countries: string[];
  rules: unknown[];
  version: number;
}

async function storedLists(): Promise<StoredList[]> {
  const res = await fetch(`${suite.stack.baseUrl}/api/watchlists`);
  return ((await res.json()) as { watchlists: StoredList[] }).watchlists;
}

async function sampleList(): Promise<StoredList> {
  const sample = (await storedLists()).find((l) => l.name.startsWith('Sample'));
  if (!sample) throw new Error('the demo sample list was not made');
  return sample;
}

/** The text of the elements an element's aria-describedby names. */
function description(field: Locator): Promise<string> {
  return field.evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );
}

const newListForm = (page: Page) => page.getByRole('region', { name: 'New watchlist' });

beforeAll(async () => {
  await suite.stack.bff.historyIdle();
  await suite.stack.bff.demoWatchlist();
});

describe('alert rules in the watchlist form (issue 19, point 1)', () => {
  it("shows the sample list's rules as sentences and saves an edit with If-Match", async () => {
    const sample = await sampleList();
    const { page } = await suite.open(DESKTOP);
    const puts: { ifMatch: string | undefined; body: string | null }[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT') {
        puts.push({ ifMatch: request.headers()['if-match'], body: request.postData() });
      }
    });
    await page.goto(`${suite.stack.baseUrl}/watchlists/${sample.id}`);
    const summary = page.getByRole('region', { name: 'Alert rules' });
    await summary
      .getByText('Alert when a country changes tier, up or down, between two batches.')
      .waitFor();
    await summary
      .getByText(
        "Alert when a country's active score moves by 10 or more, up or down, between two batches.",
      )
      .waitFor();

    const editor = page.getByRole('group', { name: 'Alert rules' });
    const first = editor.getByRole('group', { name: 'Rule 1: Active score change' });
    await first.getByRole('spinbutton', { name: 'Change of at least (points)' }).fill('15');
    await first.getByText('active score moves by 15 or more').waitFor();
    await editor.getByRole('button', { name: '+ Risk crosses a level' }).click();
    const third = editor.getByRole('group', { name: 'Rule 3: Risk crosses a level' });
    await third.getByRole('spinbutton', { name: 'Risk level (0 to 100)' }).fill('80');
    await third.getByRole('combobox', { name: 'Direction' }).selectOption('down');
    await third
      .getByText(
        "Alert when a country's risk score falls below 80 (from 80 or above) between two batches.",
      )
      .waitFor();
    await page.getByRole('button', { name: 'Save' }).click();

    await expect
      .poll(async () => (await sampleList()).rules)
      .toEqual([
        { kind: 'active_change', min_abs_delta: 15 },
        { kind: 'tier_change', direction: 'both' },
        { kind: 'risk_threshold', threshold: 80, direction: 'down' },
      ]);
    expect(puts).toHaveLength(1);
    expect(puts[0]!.ifMatch).toBe(`"${sample.version}"`);
    // The page follows what was stored: the summary names the new rule.
    await summary.getByText('risk score falls below 80').waitFor();
    await page.screenshot({ path: screenshotPath('watchlist-rules-saved'), fullPage: true });
  });

  it('holds at most 20 rules and saves none that repeats another', async () => {
    const sample = await sampleList();
    const { page } = await suite.open(DESKTOP);
    let puts = 0;
    page.on('request', (request) => {
      if (request.method() === 'PUT') puts += 1;
    });
    await page.goto(`${suite.stack.baseUrl}/watchlists/${sample.id}`);
    const editor = page.getByRole('group', { name: 'Alert rules' });
    const add = editor.getByRole('button', { name: '+ Tier change' });
    await editor.getByRole('group', { name: /^Rule 1:/ }).waitFor();
    const start = await editor.getByRole('group', { name: /^Rule \d+:/ }).count();
    for (let n = start; n < 20; n += 1) await add.click();
    await editor.getByText('20 of 20 rules: the most a list may have.').waitFor();
    for (const name of [
      '+ Active score change',
      '+ Tier change',
      '+ Risk crosses a level',
      '+ Breaking event',
    ]) {
      expect(await editor.getByRole('button', { name }).isDisabled(), name).toBe(true);
    }
    // The second tier rule repeats the first: the form says so beside it and sends nothing.
    const repeat = editor.getByRole('group', { name: `Rule ${start + 1}: Tier change` });
    await repeat.getByText(/^The same as rule \d+/).waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    // The submit handler has run when it moves focus to the first rule with a problem.
    await expect
      .poll(() =>
        repeat
          .getByRole('combobox', { name: 'Direction' })
          .evaluate((el) => el === document.activeElement),
      )
      .toBe(true);
    expect(puts).toBe(0);
    expect((await sampleList()).version).toBe(sample.version);
  });
});

describe('countries chosen by name, problems next to their fields (issue 19, point 2)', () => {
  it('a new list: errors tied to fields, countries picked by name as chips, server 400 on its field', async () => {
    const { page } = await suite.open(DESKTOP, ['400 /api/watchlists']);
    await page.goto(`${suite.stack.baseUrl}/watchlists`);
    const form = newListForm(page);
    // The rule a new list gets is on screen, not silent.
    await form
      .getByText(
        "Alert when a country's active score moves by 10 or more, up or down, between two batches.",
      )
      .waitFor();

    await form.getByRole('button', { name: 'Create' }).click();
    const name = form.getByRole('textbox', { name: 'Name' });
    const countries = form.getByRole('combobox', { name: 'Countries' });
    await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true');
    expect(await description(name)).toContain('Give the list a name.');
    expect(await countries.getAttribute('aria-invalid')).toBe('true');
    expect(await description(countries)).toContain('Choose at least one country.');
    await expect.poll(() => name.evaluate((el) => el === document.activeElement)).toBe(true);

    await name.fill('West Africa');
    await countries.fill('Ivory Coast');
    const options = form.getByRole('option');
    await expect.poll(() => options.first().textContent()).toContain('CIV');
    // Each result carries its tier and risk.
    await options.first().locator('.tier-badge').waitFor();
    expect(await options.first().textContent()).toMatch(/risk \d+\.\d/);
    await countries.press('Enter');
    const chosen = form.getByRole('list', { name: /^Chosen countries/ });
    await chosen
      .getByRole('listitem')
      .filter({ hasText: 'CIV' })
      .getByRole('button', { name: /^Remove / })
      .waitFor();
    await countries.fill('Nigeira');
    await expect.poll(() => options.first().textContent()).toContain('NGA');
    await countries.press('Enter');
    await countries.fill('mal');
    await expect.poll(() => options.first().textContent()).toContain('MLI');
    await countries.press('Enter');
    await chosen.getByRole('button', { name: 'Remove Mali' }).waitFor();
    // ↓ moves to the next match and Enter adds that one.
    await countries.fill('mal');
    await expect.poll(() => options.count()).toBeGreaterThan(1);
    const second = (await options.nth(1).locator('.iso').textContent()) ?? '';
    await countries.press('ArrowDown');
    await expect.poll(() => options.nth(1).getAttribute('aria-selected')).toBe('true');
    await countries.press('Enter');
    const secondChip = chosen.getByRole('listitem').filter({ hasText: second });
    await secondChip.waitFor();
    await secondChip.getByRole('button').click();
    await secondChip.waitFor({ state: 'detached' });

    // Keyboard: Tab back to Mali's remove button, Enter removes it, focus returns to the field.
    await chosen.getByRole('button', { name: 'Remove Mali' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => chosen.getByRole('button', { name: 'Remove Mali' }).count()).toBe(0);
    await expect.poll(() => countries.evaluate((el) => el === document.activeElement)).toBe(true);

    // Typed but not chosen: said beside the field, nothing sent.
    await countries.fill('Ivory');
    await form.getByRole('textbox', { name: /Webhook URL/ }).fill('http://example.com/hook');
    await form.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => description(countries)).toContain('“Ivory” is not added yet');
    expect(await countries.getAttribute('aria-invalid')).toBe('true');
    expect(await name.getAttribute('aria-invalid')).toBeNull();
    await countries.fill('');

    // The server's 400 names webhook_url: it is shown beside that field.
    await form.getByRole('button', { name: 'Create' }).click();
    const webhook = form.getByRole('textbox', { name: /Webhook URL/ });
    await expect.poll(() => webhook.getAttribute('aria-invalid')).toBe('true');
    expect(await description(webhook)).toMatch(/^The webhook URL must be an https:\/\/ URL/);
    expect(await countries.getAttribute('aria-invalid')).toBeNull();
    expect(await form.getByRole('alert').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('watchlist-form-errors'), fullPage: true });

    await webhook.fill('');
    await form.getByRole('button', { name: 'Create' }).click();
    await form.getByRole('status').getByRole('link', { name: 'West Africa' }).waitFor();
    const made = (await storedLists()).find((l) => l.name === 'West Africa');
    expect(made?.countries).toEqual(['CIV', 'NGA']);
    expect(made?.rules).toEqual([{ kind: 'active_change', min_abs_delta: 10 }]);
  });
});

describe('search: a typo, a name prefix first, tier and risk (issue 19, point 8)', () => {
  it('the palette finds "Nigeira", puts Mali before Malawi and shows each tier and risk', async () => {
    const { page } = await suite.open(DESKTOP);
    await page.goto(`${suite.stack.baseUrl}/watchlists`);
    await page.getByRole('heading', { name: 'Watchlists', level: 1 }).waitFor();
    await page.keyboard.press('Control+k');
    const dialog = page.getByRole('dialog', { name: 'Find a country' });
    const input = dialog.getByRole('combobox');
    const options = dialog.getByRole('option');
    await input.fill('Nigeira');
    await expect.poll(() => options.first().textContent()).toMatch(/^Nigeria NGA/);
    await input.fill('mal');
    await expect.poll(() => options.first().textContent()).toMatch(/^Mali MLI/);
    const names = await options.locator('.palette-name').allTextContents();
    expect(names.findIndex((n) => n.startsWith('Malawi'))).toBeGreaterThan(0);
    // Each result says its tier and risk, or that the current data has no such country.
    for (const text of await options.allTextContents()) {
      expect(text).toMatch(/(Critical|High|Moderate|Low) risk \d+\.\d|not in the current data/);
    }
    for (const iso of ['MLI', 'MWI']) {
      const option = options.filter({ hasText: iso });
      expect(await option.locator('.tier-badge').count(), iso).toBe(1);
      expect(await option.textContent(), iso).toMatch(/risk \d+\.\d/);
    }
    await page.screenshot({ path: screenshotPath('watchlist-palette-mal') });
  });
});

describe('screens at 1440 and 375 px, light and dark; axe', () => {
  for (const [label, options] of [
    ['1440', DESKTOP],
    ['375', PHONE],
  ] as const) {
    it(`the new-list form and a list's rules at ${label} px, light and dark`, async () => {
      // axe is injected as an inline script, which the app's CSP rightly blocks.
      const { page } = await suite.open({ ...options, bypassCSP: true });
      await page.goto(`${suite.stack.baseUrl}/watchlists`);
      const form = newListForm(page);
      const countries = form.getByRole('combobox', { name: 'Countries' });
      await countries.fill('Sudan');
      await form.getByRole('option').first().waitFor();
      await countries.press('Enter');
      await countries.fill('mal');
      await form.getByRole('option').nth(2).waitFor();
      expect(await pageOverflow(page)).toBe(0);
      await inEachScheme(page, async (scheme) => {
        expect(
          await seriousViolations(page, { coloursOnly: scheme === 'dark' }),
          `picker open, ${scheme}`,
        ).toEqual([]);
        await page.screenshot({
          path: screenshotPath(`watchlist-form-${label}-${scheme}`),
          fullPage: true,
        });
      });
      await page.keyboard.press('Escape');
      await form.getByRole('button', { name: '+ Risk crosses a level' }).click();
      await form.getByRole('button', { name: 'Create' }).click();
      await expect
        .poll(() => form.getByRole('textbox', { name: 'Name' }).getAttribute('aria-invalid'))
        .toBe('true');
      await inEachScheme(page, async (scheme) => {
        expect(
          await seriousViolations(page, { coloursOnly: scheme === 'dark' }),
          `form with problems, ${scheme}`,
        ).toEqual([]);
      });

      const sample = await sampleList();
      await page.goto(`${suite.stack.baseUrl}/watchlists/${sample.id}`);
      await page.getByRole('group', { name: /^Rule 1:/ }).waitFor();
      expect(await pageOverflow(page)).toBe(0);
      await inEachScheme(page, async (scheme) => {
        expect(
          await seriousViolations(page, { coloursOnly: scheme === 'dark' }),
          `list page, ${scheme}`,
        ).toEqual([]);
        await page.screenshot({
          path: screenshotPath(`watchlist-page-${label}-${scheme}`),
          fullPage: true,
        });
      });
      await page.getByRole('button', { name: /Find a country/ }).click();
      await page.getByRole('dialog').getByRole('combobox').fill('Niger');
      await page.getByRole('dialog').getByRole('option').nth(1).waitFor();
      await inEachScheme(page, async (scheme) => {
        expect(
          await seriousViolations(page, { coloursOnly: scheme === 'dark' }),
          `palette, ${scheme}`,
        ).toEqual([]);
        await page.screenshot({ path: screenshotPath(`watchlist-palette-${label}-${scheme}`) });
      });
    });
  }
});
