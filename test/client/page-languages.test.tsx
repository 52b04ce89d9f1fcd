import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { filterWords } from '../../src/client/features/exposure/components/exposure-brief';
import { applyLanguage, loadLanguage } from '../../src/client/lib/i18n';
import { countriesBody, countryBody, hotspotsBody, statusBody, shellRoutes } from './fixtures/data';
import { countryHistoryRoutes, historyRoutes } from './fixtures/history';
import { exposureBody, notesRoutes, sitesBody, storeRoutes, withHistory } from './fixtures/sites';
import { installFakeBff } from './fake-bff';
import { renderApp } from './render-app';

/*
 * Issue 34, the pages part: exposure, the brief's words and the search palette in French and
 * Arabic, where a count picks a plural form, a list is joined in the language's own way, or a
 * country is found by its name in the page language.
 */
afterEach(() => applyLanguage('en', document.documentElement));

async function speak(language: 'fr' | 'ar'): Promise<void> {
  await loadLanguage(language);
  applyLanguage(language, document.documentElement);
}

describe('exposure in another language', () => {
  it('Arabic: what moved counts two sites with the dual, and its arrows point the reading way', async () => {
    installFakeBff({
      ...shellRoutes(),
      ...storeRoutes(),
      ...historyRoutes(),
      '/api/status': { body: statusBody(withHistory) },
      '/api/exposure': { body: exposureBody() },
      '/api/sites': { body: sitesBody() },
      '/api/sites/alert-delivery': { status: 404, body: { ok: false, error: 'not in this test' } },
      '/api/countries': { body: countriesBody() },
      '/api/v1/hotspots': { body: hotspotsBody() },
    });
    renderApp('/exposure?moved=week&lang=ar');
    const moved = await screen.findByRole('region', { name: 'أين تحرّكت بلدان مواقعنا' });
    expect(document.documentElement.dir).toBe('rtl');
    expect(within(moved).getByRole('radio', { name: '7 أيام' })).toBeChecked();
    // Two sites: the dual ("موقعان"), not "2 مواقع"; the site's name is the team's own.
    expect(moved).toHaveTextContent('موقعان، 70 شخص: Kyiv office');
    expect(within(moved).getByRole('link', { name: 'Kyiv office' })).toHaveAttribute(
      'translate',
      'no',
    );
    expect(moved).toHaveTextContent(/الخطر [\d.]+ ← [\d.]+/);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('التعرض: مواقعنا');
  });

  it("French: the brief's filters as a sentence, lists joined with « et »", async () => {
    await speak('fr');
    expect(
      filterWords({ tiers: ['crit', 'high'], countries: ['UKR'], kinds: ['plant'], tag: 'ops' }),
    ).toBe(
      'Nos sites dans les pays de niveau Critique et Élevé ; dans ces pays : Ukraine ; de type usine ; étiquetés ops',
    );
    expect(filterWords({ tiers: [], countries: [], kinds: [], tag: null })).toBe('Tous nos sites');
  });
});

describe('the search palette in French', () => {
  it('finds a country by its French name and counts the matches in French', async () => {
    installFakeBff({
      ...shellRoutes(),
      '/api/status': { body: statusBody() },
      '/api/countries': { body: countriesBody() },
      '/api/v1/hotspots': { body: hotspotsBody() },
      '/api/v1/country/UKR': { body: countryBody() },
      ...historyRoutes(),
      ...countryHistoryRoutes({ GBR: 'United Kingdom' }),
      '/api/notes': { body: { ok: true, notes: [] } },
      ...notesRoutes(['UKR']),
    });
    renderApp('/country/UKR?lang=fr');
    await userEvent.click(await screen.findByRole('button', { name: /Trouver un pays/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Trouver un pays' });
    const input = within(dialog).getByRole('combobox', { name: 'Nom ou code du pays' });
    // "Royaume" begins two French names (Royaume-Uni, Royaume de Belgique): the plural form.
    await userEvent.type(input, 'royaume');
    expect(await within(dialog).findByText(/^\d+ pays correspondent\.$/)).toBeInTheDocument();
    await userEvent.clear(input);
    await userEvent.type(input, 'royaume-uni');
    const [first] = await within(dialog).findAllByRole('option');
    expect(first).toHaveTextContent(/^Royaume-Uni GBR/);
    // Found by the name it is shown with: no "correspond à « Royaume-Uni »" beside it.
    expect(first).not.toHaveTextContent('correspond à');
    expect(within(dialog).getByText('1 pays correspond.')).toBeInTheDocument();
  });
});
