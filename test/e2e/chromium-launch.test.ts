import { chromium, type Browser } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.js';
import { playwrightBrowsers, processes, type Process } from './processes.js';

/** Renderers of a browser's own UI (the address bar's popup), as opposed to its pages. */
function uiRenderers(browserPid: number): number {
  const all = processes();
  const under = (pid: number): boolean => {
    for (let up = all.get(pid)?.parent; up !== undefined && up > 1; up = all.get(up)?.parent) {
      if (up === browserPid) return true;
    }
    return false;
  };
  // A child process rewrites its command line as one string: no NUL between its arguments.
  const ui = ({ args }: Process): boolean => args.join(' ').includes(' --top-chrome-webui');
  return [...all].filter(([pid, child]) => ui(child) && under(pid)).length;
}

/** Launches a browser and opens two contexts with a page each; gives its process id. */
async function launchWithPages(launch: () => Promise<Browser>): Promise<number> {
  const before = new Set(playwrightBrowsers().keys());
  const browser = await launch();
  opened.push(browser);
  const [pid, ...others] = [...playwrightBrowsers().keys()].filter(
    (candidate) => !before.has(candidate),
  );
  if (pid === undefined || others.length > 0) throw new Error('could not tell the new browser');
  for (let i = 0; i < 2; i++) {
    const page = await (await browser.newContext()).newPage();
    // A navigation: the address bar's popup is made once a page has committed one.
    await page.goto('data:text/html,<p>a page</p>');
  }
  return pid;
}

const opened: Browser[] = [];

describe('the Chromium the browser tests launch', () => {
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((browser) => browser.close()));
  });

  it("keeps Playwright's own disabled features and adds the address bar's popup to them", async () => {
    const pid = await launchWithPages(launchChromium);
    const args = processes().get(pid)?.args ?? [];
    const features = args.findLast((arg) => arg.startsWith('--disable-features='))?.split('=')[1];
    // Two of Playwright's (playwright-core's chromiumSwitches): losing them changes what pages do.
    expect(features?.split(',')).toEqual(
      expect.arrayContaining(['PaintHolding', 'HttpsUpgrades', 'WebUIOmniboxPopup']),
    );
  });

  it("starts no renderer for the browser's own UI, which a plain launch does per context", async () => {
    const ours = await launchWithPages(launchChromium);
    const plain = await launchWithPages(() =>
      chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] }),
    );
    // The plain browser, started after ours, shows the check sees such renderers by then.
    await expect.poll(() => uiRenderers(plain)).toBe(2);
    expect(uiRenderers(ours)).toBe(0);
  });
});
