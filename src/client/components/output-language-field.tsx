import { LANGUAGE_NAMES, LANGUAGES, type Language } from '../../shared/i18n/languages';
import { FormField } from './form-field';

/**
 * The language a list's e-mails and webhook texts are written in (issue 34): each language named
 * in its own words, as the settings page's picker does, marked with its `lang` for screen readers.
 */
export function OutputLanguageField({ defaultValue }: { defaultValue: Language }) {
  return (
    <FormField
      label="Language of e-mails and webhooks"
      hint="Codes, scores and times in webhook payloads stay as they are."
      problem={undefined}
    >
      {(control) => (
        <select {...control} name="language" defaultValue={defaultValue}>
          {LANGUAGES.map((code) => (
            <option key={code} value={code} lang={code}>
              {LANGUAGE_NAMES[code]}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}
