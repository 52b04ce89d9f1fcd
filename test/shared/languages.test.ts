import { describe, expect, it } from 'vitest';
import {
  directionOf,
  firstSpoken,
  parseAcceptLanguage,
  resolveLanguage,
} from '../../src/shared/i18n/languages';
import { CATALOGUES } from '../../src/shared/i18n/index';
import { OUTPUTS } from '../../src/shared/i18n/outputs/index';
import { outputsIn } from '../../src/shared/i18n/outputs/translate';
import { pseudoCatalogue, pseudoMessage } from '../../src/shared/i18n/pseudo';

describe('Accept-Language', () => {
  it('orders tags by q-value, equal weights in header order, q=0 dropped', () => {
    expect(parseAcceptLanguage('de;q=0.9, ar;q=0.95, fr-CA, es;q=0.95, en;q=0')).toEqual([
      'fr-CA',
      'ar',
      'es',
      'de',
    ]);
  });

  it('skips malformed entries and reads nothing from an empty header', () => {
    expect(parseAcceptLanguage('<script>, fr;q=abc, es;q=0.5')).toEqual(['es']);
    expect(parseAcceptLanguage(undefined)).toEqual([]);
    expect(parseAcceptLanguage('')).toEqual([]);
  });

  it('takes the first tag we speak, by its primary subtag', () => {
    expect(firstSpoken(parseAcceptLanguage('de-DE, pt;q=0.9, ES-mx;q=0.8, fr;q=0.7'))).toBe('es');
    expect(firstSpoken(['de', 'it'])).toBeNull();
  });
});

describe('resolveLanguage', () => {
  it('?lang= wins over the setting, the setting over the browser', () => {
    expect(resolveLanguage({ query: 'ar', setting: 'fr', browser: ['es'] })).toBe('ar');
    expect(resolveLanguage({ query: null, setting: 'fr', browser: ['es'] })).toBe('fr');
    expect(resolveLanguage({ setting: null, browser: ['de', 'es-419'] })).toBe('es');
    expect(resolveLanguage({})).toBe('en');
  });

  it('an unknown ?lang= gives English, not an error, and a region is read as its language', () => {
    expect(resolveLanguage({ query: 'xx', setting: 'fr', browser: ['es'] })).toBe('en');
    expect(resolveLanguage({ query: 'FR-ca' })).toBe('fr');
    expect(resolveLanguage({ query: '  ', setting: 'es' })).toBe('es');
  });

  it('an unknown setting is ignored', () => {
    expect(resolveLanguage({ setting: 'de', browser: ['ar-EG'] })).toBe('ar');
  });

  it('the pseudo-locale only when allowed, and only from the URL', () => {
    expect(resolveLanguage({ query: 'en-XA', allowPseudo: true })).toBe('en-XA');
    expect(resolveLanguage({ query: 'en-XA', allowPseudo: false })).toBe('en');
    expect(resolveLanguage({ setting: 'en-XA', browser: ['en-XA'], allowPseudo: true })).toBe('en');
  });

  it('Arabic reads right to left, the others left to right', () => {
    expect(directionOf('ar')).toBe('rtl');
    expect(['en', 'fr', 'es', 'en-XA'].map((l) => directionOf(l as 'en'))).toEqual([
      'ltr',
      'ltr',
      'ltr',
      'ltr',
    ]);
  });
});

describe('catalogues', () => {
  it('every language has every English message, none empty, the same placeholders', () => {
    for (const [language, catalogue] of Object.entries(CATALOGUES)) {
      for (const [section, messages] of Object.entries(CATALOGUES.en)) {
        const own = (catalogue as unknown as Record<string, Record<string, string>>)[section];
        for (const [key, english] of Object.entries(messages)) {
          const text = own?.[key];
          expect(text, `${language} ${section}.${key}`).toBeTruthy();
          // Placeholders must survive translation, or i18next shows "{{count}}" to readers.
          const holes = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
          expect(holes(text ?? ''), `${language} ${section}.${key}`).toEqual(holes(english));
        }
      }
    }
  });

  it('what is sent and exported (the outputs namespace): every key, same placeholders', () => {
    const holes = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    for (const [language, catalogue] of Object.entries(OUTPUTS)) {
      for (const [section, messages] of Object.entries(OUTPUTS.en)) {
        const own = (catalogue as unknown as Record<string, Record<string, string>>)[section];
        for (const [key, english] of Object.entries(messages)) {
          const text = own?.[key];
          expect(text, `${language} outputs ${section}.${key}`).toBeTruthy();
          expect(holes(text ?? ''), `${language} outputs ${section}.${key}`).toEqual(
            holes(english),
          );
        }
      }
    }
    // Through i18next's own namespace, with plurals by CLDR's rules.
    expect(outputsIn('fr').t('alert.mailSubject', { count: 2, list: 'L', batch: 'b' })).toBe(
      '2 alertes pour « L » (lot du b)',
    );
    expect(outputsIn('ar').t('alert.mailSubject', { count: 2, list: 'L', batch: 'b' })).toBe(
      'تنبيهان لـ «L» (دفعة b)',
    );
    expect(outputsIn('zz').t('sheet.rank')).toBe('Rank');
  });

  it('the pseudo-locale marks and accents each message, keeping placeholders', () => {
    expect(pseudoMessage('Skip to {{where}} now')).toBe('⟦Šķîp ţö {{where}} ñöw⟧');
    const pseudo = pseudoCatalogue(CATALOGUES.en);
    expect(pseudo.shell.brand).toMatch(/^⟦.*⟧$/);
    expect(pseudo.shell.brand).not.toBe(CATALOGUES.en.shell.brand);
  });
});
