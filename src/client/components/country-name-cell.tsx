import { Link } from '../lib/app-link';
import { displayName, formalNameTitle } from '../lib/display-name';
import { t } from '../lib/i18n';

/**
 * A table's country cell: the one name the dashboard uses for it, linking to its page (the
 * official name as the link's title), then its code. `linkState` lets the country page's back
 * link return to exactly the table view the reader left.
 */
export function CountryNameCell({
  iso,
  name,
  linkState,
}: {
  iso: string;
  name: string;
  linkState?: unknown;
}) {
  return (
    <>
      <Link
        to={`/country/${encodeURIComponent(iso)}`}
        state={linkState}
        title={formalNameTitle(iso, name)}
      >
        {displayName(iso, name)}
      </Link>{' '}
      <span className="iso">{iso}</span>
    </>
  );
}

/** A table's "Search country" field (name or ISO code), the same in every table. */
export function CountrySearchField({
  id,
  value,
  onChange,
}: {
  id: string;
  value: string;
  onChange: (q: string) => void;
}) {
  return (
    <div className="field field-grow">
      <label htmlFor={id}>{t('table.searchCountry')}</label>
      <input
        id={id}
        type="search"
        placeholder={t('table.searchPlaceholder')}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}
