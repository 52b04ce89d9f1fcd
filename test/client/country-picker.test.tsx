import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { CountryPicker } from '../../src/client/components/country-picker';
import { buildReferenceCountries } from '../../src/server/services/reference/reference-countries';

const COUNTRIES = buildReferenceCountries();

function Picker({ max }: { max: number }) {
  const [chosen, setChosen] = useState<string[]>([]);
  return (
    <CountryPicker
      label="Country"
      pendingName="pending"
      choices={{ countries: COUNTRIES, loadError: null, figures: null }}
      chosen={chosen}
      onChange={setChosen}
      max={max}
      error={null}
    />
  );
}

/** The field's description: the hint the picker keeps up to date. */
const hint = () => {
  const ids = screen.getByRole('combobox', { name: 'Country' }).getAttribute('aria-describedby');
  return document.getElementById(ids?.split(' ')[0] ?? '')?.textContent ?? '';
};

describe('the country picker says how many are chosen in words that fit', () => {
  it('a single choice (a site\'s country) is no list: no "0 of 1 countries"', async () => {
    render(<Picker max={1} />);
    expect(hint()).toBe(
      'No country chosen. Type a name, a code or a common name; Enter chooses it.',
    );
    const user = userEvent.setup();
    await user.type(screen.getByRole('combobox', { name: 'Country' }), 'Kenya{Enter}');
    expect(hint()).toBe('Kenya is chosen: remove it to choose another country.');
    await user.click(screen.getByRole('button', { name: 'Remove Kenya' }));
    expect(hint()).toMatch(/^No country chosen\./);
  });

  it('a list counts its countries against its limit', async () => {
    render(<Picker max={2} />);
    expect(hint()).toMatch(/^0 of 2 countries\. Type a name/);
    const user = userEvent.setup();
    const field = screen.getByRole('combobox', { name: 'Country' });
    await user.type(field, 'Kenya{Enter}');
    expect(hint()).toMatch(/^1 of 2 countries\. /);
    await user.type(field, 'Peru{Enter}');
    expect(hint()).toBe('2 of 2 countries: the most a list may have.');
  });
});
