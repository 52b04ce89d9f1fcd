import { afterEach, describe, expect, it } from 'vitest';
import { auditSentence, type AuditSay } from '../../src/shared/audit-words';
import type { ImportResponse } from '../../src/shared/sites-api';
import { importSummary } from '../../src/client/features/sites/components/import-report';
import { formatKm } from '../../src/client/features/sites/utils/distance';
import {
  checkDraft,
  ruleSentence,
  type SiteDraft,
} from '../../src/client/features/sites/utils/site-draft';
import { siteProblemWords } from '../../src/client/features/sites/utils/site-fields';
import { formatInteger, formatUtcDateTime } from '../../src/client/lib/format';
import { applyLanguage, loadLanguage, t } from '../../src/client/lib/i18n';

/*
 * Issue 34, sites and outputs: what the sites' and admin pages work out in words (plural forms
 * by CLDR, numbers in the page's digits, the audit sentence) in French and Arabic.
 */
afterEach(() => applyLanguage('en', document.documentElement));

async function speak(language: 'fr' | 'ar'): Promise<void> {
  await loadLanguage(language);
  applyLanguage(language, document.documentElement);
}

function answer(rows: number, total: number, dryRun = true): ImportResponse {
  return {
    ok: true,
    dry_run: dryRun,
    rows,
    created: Array.from({ length: 1 }, (_, i) => ({ row: i + 2, ref: 'A', iso: 'POL' })),
    updated: [],
    unchanged: 0,
    rejected: [],
    total,
  } as unknown as ImportResponse;
}

describe('the sites in French and Arabic', () => {
  it("French: an import's sentence with its plural forms and a decimal rule", async () => {
    await speak('fr');
    expect(importSummary(answer(1, 1))).toBe(
      '1 ligne vérifiée, rien n’est encore enregistré : 1 à créer, 0 à mettre à jour, 0 inchangé, 0 rejeté. 1 site après l’importation.',
    );
    expect(importSummary(answer(1234, 2, false))).toBe(
      '1\u202f234 lignes importées : 1 créé, 0 mis à jour, 0 inchangé, 0 rejeté. 2 sites enregistrés.',
    );
    expect(ruleSentence({ on: true, radius_km: 150, min_delta: 2.5 }, 'office')).toBe(
      'Alerte quand un pays à moins de 150 km de ce site passe à un niveau supérieur ou que son score actif varie de 2,5 ou plus.',
    );
    expect(formatKm(1240)).toBe('1\u202f240 km');
  });

  it('Arabic: the two, few and many forms, its comma, its kilometres', async () => {
    await speak('ar');
    const sites = (count: number) => t('sites.sitesStored', { count, shown: formatInteger(count) });
    expect(sites(2)).toBe('موقعان محفوظان');
    expect(sites(3)).toBe('3 مواقع محفوظة');
    expect(sites(11)).toBe('11 موقعًا محفوظًا');
    expect(sites(100)).toBe('100 موقع محفوظ');
    expect(importSummary(answer(2, 5))).toBe(
      'فُحص صفّان، ولم يُحفظ شيء بعد: 1 للإنشاء، 0 للتحديث، 0 دون تغيير، 0 مرفوض. 5 مواقع بعد الاستيراد.',
    );
    expect(formatKm(80)).toBe('80 كم');
    expect(formatKm(0.4)).toBe('أقل من 1 كم');
  });

  it('Arabic: a date reads right to left, its time and "UTC" after it (issue 34, f)', async () => {
    await speak('ar');
    // Before: the whole kept left to right, which put "UTC" first and the day last.
    expect(formatUtcDateTime('2026-11-22T10:00:00Z')).toBe(
      '\u206722 نوفمبر 2026، \u206610:00 UTC\u2069\u2069',
    );
  });

  it("the audit log's sentences in the page's language, an import counted", async () => {
    await speak('fr');
    const say: AuditSay = (key, values) => t(`admin.${key}` as 'admin.nav', values ?? {});
    const entry = { who: { name: 'Alice' }, status: 200, after: null };
    expect(auditSentence({ ...entry, action: 'team index weights set' }, say)).toBe(
      'Alice a fixé les poids de l’indice de l’équipe',
    );
    const imported = { created: Array(39).fill({}), updated: [{}] };
    expect(
      auditSentence(
        { ...entry, action: 'POST /api/sites/import', after: imported },
        say,
        formatInteger,
      ),
    ).toBe('Alice a importé 40 sites');
    expect(auditSentence({ ...entry, action: 'override set', status: 403 }, say)).toBe(
      'Alice a été refusé : a imposé un niveau',
    );
    // English, as the spreadsheet writes it, with no `t` at all.
    expect(auditSentence({ ...entry, action: 'override ended' })).toBe(
      'Alice ended a tier override',
    );
  });
});

describe("the site form's problems in the page language", () => {
  const draft: SiteDraft = {
    ref: 'A-1',
    name: '=2+3',
    kind: 'office',
    lat: '95',
    lng: '10',
    iso: [],
    people: '',
    value: '',
    currency: '',
    tags: '',
    from: '',
    to: '',
    alertOn: true,
    radius: '100',
    minDelta: '10',
  };

  it('English: the schema’s own words, the API names made plain', () => {
    const checked = checkDraft(draft, false);
    if (checked.ok) throw new Error('the draft should be refused');
    expect(siteProblemWords('lat', checked.problems.lat ?? '')).toBe(
      'The latitude must be from -90 to 90 degrees',
    );
  });

  it('French: what the field takes, or the particular problem, never the English', async () => {
    await speak('fr');
    const checked = checkDraft(draft, false);
    if (checked.ok) throw new Error('the draft should be refused');
    expect(siteProblemWords('lat', checked.problems.lat ?? '')).toBe(
      'Indiquez la latitude en degrés, de −90 à 90',
    );
    expect(siteProblemWords('name', checked.problems.name ?? '')).toBe(
      'Cela ressemble à une formule de tableur : les sites n’acceptent que des valeurs simples',
    );
    // The server's 409 and a refused point, as the BFF words them.
    expect(siteProblemWords('ref', 'ref: another site already has this ref')).toBe(
      'Un autre site a déjà cette référence',
    );
    expect(
      siteProblemWords('lat', 'the point is 400 km from the nearest country (at most 300)'),
    ).toMatch(/^Le point est trop loin/);
    expect(siteProblemWords('tags', 'a site may have at most 20 tags')).toBe(
      'Indiquez au plus 20 étiquettes de 1 à 40 caractères chacune',
    );
    // The form's own words, already French, are shown as they are.
    const own = t('sites.countryNotChosen', { typed: 'Pologne' });
    expect(siteProblemWords('iso', own)).toBe(own);
  });
});
