import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { applyLanguage, loadLanguage } from '../../src/client/lib/i18n';
import {
  newDraft,
  ruleSentence,
  rulesOf,
} from '../../src/client/features/watchlists/utils/rule-drafts';
import type { TriagedAlert } from '../../src/shared/alert-triage-api';
import type { Watchlist } from '../../src/shared/alerts-api';
import { AS_OF, countriesBody, shellRoutes, statusBody } from './fixtures/data';
import { referenceBody } from './fixtures/history';
import { installFakeBff } from './fake-bff';
import { renderApp } from './render-app';

/*
 * Issue 34, lists: an alert's reason is said in the page's language from its kind and numbers
 * (English shows the words the evaluator stored), as its e-mails say it; a list's counts take
 * each language's plural forms (Arabic's dual and "few").
 */
afterEach(() => applyLanguage('en', document.documentElement));

const numbers = (over: Partial<TriagedAlert['after']> = {}) => ({
  as_of: AS_OF,
  risk: null,
  tier: null,
  active: null,
  ...over,
});

function alert(id: string, over: Partial<TriagedAlert>): TriagedAlert {
  return {
    id,
    watchlist_id: '3',
    watchlist_name: 'Sahel desk',
    rule: 'active_change:10',
    kind: 'active_change',
    iso: 'MLI',
    country: 'Mali',
    message: 'stored English words',
    link: '/country/MLI',
    batch_as_of: AS_OF,
    before: numbers(),
    after: numbers(),
    created_at: AS_OF,
    read_at: AS_OF,
    acknowledgement: null,
    ...over,
  };
}

const ALERTS: TriagedAlert[] = [
  alert('1', {
    iso: 'DEU',
    country: 'Germany',
    message: 'Active +12.4 (41.0 → 53.4) since the previous batch: at least 10 either way',
    before: numbers({ active: 41 }),
    after: numbers({ active: 53.4 }),
    acknowledgement: { disposition: 'no_impact', note: null, by: 'ana', at: AS_OF, revision: 2 },
  }),
  alert('2', {
    kind: 'tier_change',
    rule: 'tier_change:both',
    message: 'Tier up from Moderate to High (risk 55.0 → 61.0)',
    before: numbers({ tier: 'mod' }),
    after: numbers({ tier: 'high' }),
  }),
  alert('3', {
    kind: 'breaking_event',
    rule: 'breaking_event',
    message: 'Breaking event: Floods in Mopti (Reuters)',
  }),
  alert('4', {
    kind: 'method_change',
    rule: 'method_change',
    iso: 'XMC',
    country: 'Countries of the list',
    message: 'The provider changed its method from 2.1 to 3.0 with this batch: …',
    before: null,
  }),
  alert('5', {
    kind: 'override_expired',
    rule: 'override_expired',
    message: 'Our override of Mali (High, “talks”, set by ana) ended at its expiry: …',
  }),
  // Measured from an older batch: the previous one lacked the country (jobs/alert-before.ts).
  alert('6', {
    message:
      'Active +20.0 (8.0 → 28.0) since the batch of 2025-06-01 22:00 UTC: at least 10 either way',
    before: numbers({ active: 8, as_of: '2025-06-01T22:00:00.000Z' }),
    after: numbers({ active: 28 }),
  }),
];

function alertsPage() {
  installFakeBff({
    ...shellRoutes(),
    '/api/status': { body: statusBody() },
    '/api/watchlists': { body: { ok: true, watchlists: [] } },
    '/api/alerts': { body: { ok: true, alerts: ALERTS, unread: 0, next_cursor: null } },
  });
}

const reasons = () =>
  [...document.querySelectorAll('.alert-message')].map((p) => p.textContent ?? '');

describe('alerts in the page language', () => {
  it('says every kind of alert in French, as its e-mails do, with the team’s acknowledgement', async () => {
    alertsPage();
    renderApp('/alerts?lang=fr');
    await screen.findByRole('heading', { level: 1, name: 'Alertes' });
    await screen.findByText('Niveau Modéré → Élevé');
    expect(reasons()).toEqual([
      'Score actif +12,4 (41,0 → 53,4) depuis le lot précédent',
      'Niveau Modéré → Élevé',
      'Événement majeur : Floods in Mopti (Reuters)',
      'Le fournisseur a changé sa méthode de notation',
      'Notre niveau imposé a pris fin',
      'Score actif +20,0 (8,0 → 28,0) depuis le lot du 1 juin 2025, 22:00 UTC',
    ]);
    // The upstream's headline and source stay as they came, marked as not ours to translate.
    expect(screen.getByText('Floods in Mopti (Reuters)')).toHaveAttribute('translate', 'no');
    // The country in French (CLDR); the method notice is about the list's countries together.
    expect(screen.getByRole('link', { name: 'Allemagne (DEU)' })).toHaveAttribute(
      'href',
      '/country/DEU?lang=fr',
    );
    expect(screen.getByRole('link', { name: 'Pays de la liste (XMC)' })).toHaveAttribute(
      'href',
      '/?lang=fr',
    );
    const first = screen.getAllByRole('listitem').find((li) => li.textContent?.includes('DEU'));
    expect(
      within(first!)
        .getByText(/accusé de réception par/)
        .closest('p'),
    ).toHaveTextContent(
      'Sans impact · accusé de réception par ana le 2025-06-02 10:00 UTC (modifié 1×)',
    );
    expect(
      within(first!).getByRole('button', {
        name: /^Modifier l'accusé de réception\s*: Allemagne$/,
      }),
    ).toBeInTheDocument();
  });

  it('shows the words the evaluator stored on an English page', async () => {
    alertsPage();
    renderApp('/alerts');
    await screen.findByText('Tier up from Moderate to High (risk 55.0 → 61.0)');
    expect(reasons()).toEqual(ALERTS.map((a) => a.message));
  });
});

describe('a watchlist’s rules in French', () => {
  it('says each rule and each problem with French numbers', async () => {
    await loadLanguage('fr');
    applyLanguage('fr', document.documentElement);
    expect(ruleSentence({ kind: 'risk_threshold', threshold: 62.5, direction: 'down' })).toBe(
      'Alerter quand le score de risque d’un pays passe sous 62,5 (en partant de 62,5 ou plus) entre deux lots.',
    );
    expect(ruleSentence({ kind: 'tier_change', direction: 'up' })).toBe(
      'Alerter quand un pays monte d’un niveau (par exemple de Modéré à Élevé) entre deux lots.',
    );
    const { problems } = rulesOf([
      { ...newDraft('active_change'), value: '' },
      { ...newDraft('active_change'), value: '0' },
      { ...newDraft('team_index_threshold'), value: '101' },
      newDraft('tier_change'),
      newDraft('tier_change'),
    ]);
    expect(problems).toEqual([
      'La variation doit être un nombre',
      'La variation doit être d’au moins 0,1',
      'Le seuil doit être compris entre 0 et 100',
      null,
      'Identique à la règle 4 : modifiez-la ou retirez-en une',
    ]);
  });
});

const list = (id: string, countries: string[], rules: Watchlist['rules']): Watchlist => ({
  id,
  name: `List ${id}`,
  countries,
  rules,
  scope: 'team',
  owner: null,
  webhook: null,
  email: null,
  language: 'en',
  version: 1,
  created_at: AS_OF,
  updated_at: AS_OF,
  unread_alerts: 2,
});

describe('the watchlists page in Arabic', () => {
  it("counts a list's countries, rules and unread alerts with Arabic's plural forms", async () => {
    const tier = { kind: 'tier_change', direction: 'both' } as const;
    const active = (min: number) => ({ kind: 'active_change', min_abs_delta: min }) as const;
    const eleven = ['MLI', 'NER', 'BFA', 'TCD', 'SDN', 'SSD', 'SOM', 'ETH', 'NGA', 'CMR', 'CAF'];
    installFakeBff({
      ...shellRoutes(),
      '/api/status': { body: statusBody() },
      '/api/reference/countries': { body: referenceBody() },
      '/api/countries': { body: countriesBody() },
      '/api/watchlists': {
        body: {
          ok: true,
          watchlists: [
            list('1', ['MLI', 'NER'], [tier, active(10), active(20)]),
            list('2', eleven, [tier]),
          ],
        },
      },
    });
    renderApp('/watchlists?lang=ar');
    // The Arabic catalogue is fetched first (its own chunk); the page then speaks it.
    await screen.findByRole('heading', { level: 1, name: 'قوائم المتابعة' });
    const first = await screen.findByRole('link', { name: 'List 1' });
    expect(first.closest('li')).toHaveTextContent(
      'List 1 · بلدان اثنان · 3 قواعد · تنبيهان غير مقروءين',
    );
    expect(screen.getByRole('link', { name: 'List 2' }).closest('li')).toHaveTextContent(
      'List 2 · 11 بلدًا · 1 قاعدة',
    );
    // A list's name is the person's own text.
    expect(first).toHaveAttribute('translate', 'no');
  });
});
