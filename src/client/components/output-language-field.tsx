import { LANGUAGE_NAMES, LANGUAGES, type Language } from '../../shared/i18n/languages';
import { FormField } from './form-field';
import { t } from '../lib/i18n';

/**
 * The language a list's e-mails and webhook texts are written in (issue 34): each language named
 * in its own words, as the settings page's picker does, marked with its `lang` for screen readers.
 */
export function OutputLanguageField({ defaultValue }: { defaultValue: Language }) {
  return (
    <FormField
      label={t('fields.outputLanguage')}
      hint={t('fields.outputLanguageHint')}
      problem={undefined}
    >
      {(control) => (
        <select {...control} name="language" defaultValue={defaultValue}>
          {LANGUAGES.map((code) => (
            // Each language in its own words, for every reader: never translated.
            <option key={code} value={code} lang={code} translate="no">
              {LANGUAGE_NAMES[code]}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}
