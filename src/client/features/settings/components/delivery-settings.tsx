import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_NAMES, LANGUAGES, type Language } from '../../../../shared/i18n/languages';
import type { PersonSettings } from '../../../../shared/alert-triage-api';
import { meQueries } from '../../../lib/me-queries';
import { settingsQueries, useSaveSettings } from '../api/settings-queries';

const HOURS = Array.from({ length: 24 }, (_, h) => h);

/** The interface's language (issue 34): one of ours, or none to follow the browser. */
function LanguageField({
  id,
  value,
  onChange,
}: {
  id: string;
  value: Language | null;
  onChange: (language: Language | null) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <label htmlFor={id}>{t('settings.language')}</label>
      <select
        id={id}
        aria-describedby={`${id}-hint`}
        value={value ?? ''}
        onChange={(e) => onChange((e.target.value || null) as Language | null)}
      >
        <option value="">{t('settings.browserDefault')}</option>
        {LANGUAGES.map((code) => (
          // Each language in its own words, marked so, for a screen reader to pronounce it.
          <option key={code} value={code} lang={code}>
            {LANGUAGE_NAMES[code]}
          </option>
        ))}
      </select>
      <p id={`${id}-hint`} className="muted">
        {t('settings.languageHint')}
      </p>
    </>
  );
}

function SettingsForm({
  saved,
  save,
}: {
  saved: PersonSettings;
  // Owned by the panel: the form is rebuilt for each saved version, and "Saved." must stay.
  save: ReturnType<typeof useSaveSettings>;
}) {
  const id = useId();
  const [emailOn, setEmailOn] = useState(saved.email_enabled);
  const [digestHour, setDigestHour] = useState(saved.digest_hour);
  const [timeZone, setTimeZone] = useState(
    saved.version === 0 ? Intl.DateTimeFormat().resolvedOptions().timeZone : saved.time_zone,
  );
  const [quiet, setQuiet] = useState(saved.quiet_hours !== null);
  const [start, setStart] = useState(saved.quiet_hours?.start ?? '22:00');
  const [end, setEnd] = useState(saved.quiet_hours?.end ?? '07:00');
  const [language, setLanguage] = useState<Language | null>(saved.language ?? null);
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    save.mutate({
      version: saved.version,
      input: {
        email_enabled: emailOn,
        digest_hour: digestHour,
        time_zone: timeZone.trim(),
        quiet_hours: quiet ? { start, end } : null,
        language,
      },
    });
  };
  return (
    <form className="delivery-settings" onSubmit={submit} aria-label="Your delivery settings">
      <p>
        E-mail goes to <strong>{saved.email ?? 'no address known for your sign-in'}</strong>.
      </p>
      <label>
        <input type="checkbox" checked={emailOn} onChange={(e) => setEmailOn(e.target.checked)} />
        Send me e-mail
      </label>
      <label htmlFor={`${id}-hour`}>Daily digest</label>
      <select
        id={`${id}-hour`}
        value={digestHour ?? ''}
        onChange={(e) => setDigestHour(e.target.value === '' ? null : Number(e.target.value))}
      >
        <option value="">None</option>
        {HOURS.map((h) => (
          <option key={h} value={h}>
            {String(h).padStart(2, '0')}:00
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-zone`}>Time zone (IANA, e.g. Europe/Berlin)</label>
      <input
        id={`${id}-zone`}
        value={timeZone}
        maxLength={64}
        onChange={(e) => setTimeZone(e.target.value)}
      />
      <label>
        <input type="checkbox" checked={quiet} onChange={(e) => setQuiet(e.target.checked)} />
        Quiet hours (only a rise into the top tier reaches me then)
      </label>
      {quiet ? (
        <div className="form-actions">
          <label>
            From <input type="time" value={start} onChange={(e) => setStart(e.target.value)} />
          </label>
          <label>
            until <input type="time" value={end} onChange={(e) => setEnd(e.target.value)} />
          </label>
        </div>
      ) : null}
      <LanguageField id={`${id}-language`} value={language} onChange={setLanguage} />
      {save.isError ? <p role="alert">{save.error.message}</p> : null}
      {save.isSuccess ? <p role="status">Saved.</p> : null}
      <button type="submit" disabled={save.isPending}>
        Save settings
      </button>
    </form>
  );
}

/** Each signed-in person's own delivery settings; nothing for the shared token. */
export function DeliverySettings() {
  const me = useQuery(meQueries.current());
  const person = me.data?.data.via === 'oidc' || me.data?.data.via === 'proxy';
  const settings = useQuery({ ...settingsQueries.mine(), enabled: person });
  const save = useSaveSettings();
  if (!person) return null;
  const data = settings.data?.data.settings;
  return (
    <section className="panel" aria-label="Delivery settings">
      <h2>Your delivery settings</h2>
      {settings.isError ? <p role="alert">{settings.error.message}</p> : null}
      {data ? <SettingsForm key={data.version} saved={data} save={save} /> : null}
    </section>
  );
}
