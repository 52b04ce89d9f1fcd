import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { applyLanguage } from '../../src/client/lib/i18n';
import { statusBody, shellRoutes } from './fixtures/data';
import { installFakeBff, type Route } from './fake-bff';
import { renderApp } from './render-app';

/* Issue 34: a signed-in person's saved language, under the link's ?lang=, and saving it. */
afterEach(() => applyLanguage('en', document.documentElement));

const ME = {
  body: {
    ok: true,
    name: 'Ed',
    email: 'ed@example.com',
    role: 'viewer',
    via: 'proxy',
    sign_out: null,
  },
};

function settings(language: string | null, version = 2) {
  return {
    ok: true,
    settings: {
      email_enabled: true,
      digest_hour: null,
      time_zone: 'Europe/Berlin',
      quiet_hours: null,
      email: 'ed@example.com',
      language,
      version,
    },
  };
}

function alertsPage(settingsRoute: Route) {
  return installFakeBff({
    ...shellRoutes(ME),
    '/api/status': { body: statusBody() },
    '/api/me/settings': settingsRoute,
    '/api/watchlists': { body: { ok: true, watchlists: [] } },
    '/api/alerts': { body: { ok: true, alerts: [], unread: 0, next_cursor: null } },
  });
}

describe('the page language', () => {
  it('follows the saved setting over the browser, with <html lang dir>', async () => {
    alertsPage({ body: settings('ar') });
    renderApp('/alerts');
    await screen.findByRole('heading', { level: 1, name: 'التنبيهات' });
    expect(document.documentElement.lang).toBe('ar');
    expect(document.documentElement.dir).toBe('rtl');
    expect(screen.getByRole('link', { name: 'لوحة المخاطر العالمية' })).toBeInTheDocument();
  });

  it('?lang= in the link wins over the setting', async () => {
    alertsPage({ body: settings('ar') });
    renderApp('/alerts?lang=es');
    await screen.findByRole('heading', { level: 1, name: 'Alertas' });
    await screen.findByText('Idioma');
    expect(document.documentElement.lang).toBe('es');
    expect(document.documentElement.dir).toBe('ltr');
  });

  it('is saved from the settings with the rest, and the page switches to it', async () => {
    let saved: unknown = null;
    const bff = alertsPage((_url, init) => {
      if (init?.method === 'PUT') {
        saved = JSON.parse(String(init.body));
        return { method: 'PUT', body: settings('fr', 3) };
      }
      return { body: saved ? settings('fr', 3) : settings(null) };
    });
    renderApp('/alerts');
    const field = await screen.findByLabelText('Language');
    fireEvent.change(field, { target: { value: 'fr' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(saved).toMatchObject({ language: 'fr' }));
    await screen.findByRole('heading', { level: 1, name: 'Alertes' });
    expect(document.documentElement.lang).toBe('fr');
    expect(bff.calls('/api/me/settings').length).toBeGreaterThanOrEqual(2);
  });
});

/**
 * Text of `root` not from the catalogue: the pseudo-locale marks every message (⟦…⟧); what is
 * left is numbers, codes, or words typed into the page. Languages named in their own words
 * (`lang` set) and the person's own address (`translate="no"`) are not messages.
 */
function unmarkedWords(root: Element): string[] {
  const left: string[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest('[translate="no"], [lang]:not(html)')) continue;
    let rest = node.textContent ?? '';
    for (let next = rest.replace(/⟦[^⟦⟧]*⟧/g, ' '); next !== rest;) {
      rest = next;
      next = rest.replace(/⟦[^⟦⟧]*⟧/g, ' ');
    }
    rest = rest.replace(/[\d.,:]+/g, ' ');
    if (/[A-Za-z]{2,}/.test(rest)) left.push(`${parent.tagName.toLowerCase()}: ${rest.trim()}`);
  }
  return left;
}

describe('the delivery settings in the pseudo-locale', () => {
  it('say every word from the catalogue, quiet hours and a failed save included', async () => {
    alertsPage((_url, init) =>
      init?.method === 'PUT'
        ? { status: 400, body: { ok: false, error: 'time_zone: not a time zone' } }
        : { body: settings(null) },
    );
    renderApp('/alerts?lang=en-XA');
    const form = await screen.findByRole('form', { name: /^⟦/ });
    fireEvent.click(within(form).getByRole('checkbox', { name: /^⟦Qûîéţ/ }));
    fireEvent.click(within(form).getByRole('button'));
    const failed = await within(form).findByRole('alert');
    // The server's own words stay as they came: they are not the page's to translate.
    expect(failed).toHaveTextContent('time_zone: not a time zone');
    failed.setAttribute('translate', 'no');
    expect(unmarkedWords(form)).toEqual([]);
  });
});
