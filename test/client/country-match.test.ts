import { describe, expect, it } from 'vitest';
import { searchCountries, withinOneEdit } from '../../src/client/lib/country-match';
import type { ReferenceCountry } from '../../src/shared/history-api';

const country = (iso: string, name: string, aliases: string[] = []): ReferenceCountry => ({
  iso,
  name,
  official_name: name,
  aliases,
  region: 'Africa',
  subregion: null,
});

const WORLD: ReferenceCountry[] = [
  country('MWI', 'Malawi'),
  country('MYS', 'Malaysia'),
  country('MLI', 'Mali'),
  country('MLT', 'Malta'),
  country('NGA', 'Nigeria'),
  country('NER', 'Niger'),
  country('GBR', 'United Kingdom', ['UK', 'Great Britain']),
  country('UKR', 'Ukraine'),
  country('CIV', "Côte d'Ivoire", ['Ivory Coast']),
  country('SOM', 'Somalia'),
];

const names = (text: string, inData: ReadonlySet<string> | null = null) =>
  searchCountries(WORLD, text, inData).map((hit) => hit.country.name);

describe('one edit apart', () => {
  it('counts a changed, added, dropped or swapped letter as one edit', () => {
    expect(withinOneEdit('nigeria', 'nigeria')).toBe(true);
    expect(withinOneEdit('nigeira', 'nigeria')).toBe(true); // swapped neighbours
    expect(withinOneEdit('nigerja', 'nigeria')).toBe(true); // changed
    expect(withinOneEdit('nigria', 'nigeria')).toBe(true); // dropped
    expect(withinOneEdit('nigeeria', 'nigeria')).toBe(true); // added
  });
  it('refuses two edits', () => {
    expect(withinOneEdit('nigiera', 'nigeria')).toBe(false);
    expect(withinOneEdit('ngeira', 'nigeria')).toBe(false);
    expect(withinOneEdit('nigeriaaa', 'nigeria')).toBe(false);
    expect(withinOneEdit('abcd', 'bacf')).toBe(false);
  });
});

describe('country search', () => {
  it('forgives one typo in a name, whole or begun', () => {
    expect(names('Nigeira')[0]).toBe('Nigeria');
    expect(names('Urkaine')[0]).toBe('Ukraine');
    expect(names('Malawii')[0]).toBe('Malawi');
    // A whole name one edit off before a name whose beginning is: "Malwi" is one edit from both
    // Mali (drop w) and Malawi (add a), whole names both; "Nigeri" begins Nigeria, ends Niger.
    expect(names('Malwi')).toEqual(expect.arrayContaining(['Mali', 'Malawi']));
    expect(names('Nigeri')).toEqual(['Nigeria', 'Niger']);
    expect(names('Ivroy Coast')[0]).toBe("Côte d'Ivoire");
  });
  it('keeps exact and prefix matches above typo matches', () => {
    // "Niger" is exact; "Nigeria" begins with it.
    expect(names('Niger').slice(0, 2)).toEqual(['Niger', 'Nigeria']);
    // "Mali" is exact; Malawi (one letter changed from "Mala…") comes after.
    expect(names('Mali')[0]).toBe('Mali');
  });
  it('does not guess at short text: three letters must match as typed', () => {
    expect(names('nga')).toEqual(['Nigeria']); // the code
    expect(names('xyz')).toEqual([]);
    expect(names('mzl')).toEqual([]);
  });
  it('ranks a shorter name first among names the text begins: "mal" → Mali before Malawi', () => {
    expect(names('mal')).toEqual(['Mali', 'Malta', 'Malawi', 'Malaysia', 'Somalia']);
  });
  it('puts countries in the current data before the rest of a rank', () => {
    expect(names('mal', new Set(['MWI', 'MYS']))).toEqual([
      'Malawi',
      'Malaysia',
      'Mali',
      'Malta',
      'Somalia',
    ]);
  });
  it('a whole alias before a name that begins with it: "UK" → United Kingdom, then Ukraine', () => {
    expect(names('uk')).toEqual(['United Kingdom', 'Ukraine']);
  });
});
