import { describe, expect, it } from 'vitest';
import { countryName } from '../../src/client/lib/country-names';
import { displayName as shownInSpa } from '../../src/client/lib/display-name';
import { displayName as writtenByBff } from '../../src/server/services/reference/display-names.js';
import { buildReferenceCountries } from '../../src/server/services/reference/reference-countries.js';

/*
 * Issue 33, point 8: one country, one name. The upstream, world-countries and the ISO list spell
 * Côte d'Ivoire three ways; the screens, the BFF's files and the reference list use one, and the
 * other spellings still find it in search.
 */
const NAME = "Côte d'Ivoire";
const SPELLINGS = ["Côte d'Ivoire", "Cote d'Ivoire", 'Ivory Coast', null];

describe("Côte d'Ivoire", () => {
  it('is named so whatever the data calls it, in the SPA and in what the BFF writes', () => {
    for (const spelling of SPELLINGS) {
      expect(writtenByBff('CIV', spelling)).toBe(NAME);
      expect(shownInSpa('CIV', spelling ?? 'CIV')).toBe(NAME);
    }
    expect(countryName('CIV')).toBe(NAME);
  });

  it('is named so in the reference list, and "Ivory Coast" still finds it', () => {
    const civ = buildReferenceCountries().find((country) => country.iso === 'CIV');
    expect(civ?.name).toBe(NAME);
    expect(civ?.aliases).toEqual(expect.arrayContaining(['Ivory Coast', "Cote d'Ivoire"]));
  });

  it('leaves other countries to the usual rule', () => {
    expect(writtenByBff('COD', 'Congo, Democratic Republic of the')).toBe('DR Congo');
    expect(countryName('ISL')).toBe('Iceland');
  });
});
