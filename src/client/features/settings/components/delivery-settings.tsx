import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { LANGUAGE_NAMES, LANGUAGES, type Language } from '../../../../shared/i18n/languages';
import type { PersonSettings } from '../../../../shared/person-settings-api';
import { meQueries } from '../../../lib/me-queries';
import { t } from '../../../lib/i18n';
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

/** The hour of the daily digest (the person's time zone), or none. */
function DigestHourField({
  id,
  value,
  onChange,
}: {
  id: string;
  value: number | null;
  onChange: (hour: number | null) => void;
}) {
  return (
    <>
      <label htmlFor={id}>{t('deliverySettings.digest')}</label>
      <select
        id={id}
        value={value ?? ''}
        onChange={(e) => onChange(e.target.value === '' ? null : Number(e.target.value))}
      >
        <option value="">{t('deliverySettings.none')}</option>
        {HOURS.map((h) => (
          <option key={h} value={h}>
            {String(h).padStart(2, '0')}:00
          </option>
        ))}
      </select>
    </>
  );
}

/** Quiet hours: when on, only a rise into the top tier reaches the person, from `start` to `end`. */
function QuietHoursField({
  on,
  onOn,
  start,
  onStart,
  end,
  onEnd,
}: {
  on: boolean;
  onOn: (on: boolean) => void;
  start: string;
  onStart: (time: string) => void;
  end: string;
  onEnd: (time: string) => void;
}) {
  return (
    <>
      <label>
        <input type="checkbox" checked={on} onChange={(e) => onOn(e.target.checked)} />
        {t('deliverySettings.quiet')}
      </label>
      {on ? (
        <div className="form-actions">
          <label>
            {t('deliverySettings.from')}{' '}
            <input type="time" value={start} onChange={(e) => onStart(e.target.value)} />
          </label>
          <label>
            {t('deliverySettings.until')}{' '}
            <input type="time" value={end} onChange={(e) => onEnd(e.target.value)} />
          </label>
        </div>
      ) : null}
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
    <form className="delivery-settings" onSubmit={submit} aria-label={t('deliverySettings.form')}>
      <p>
        {t('deliverySettings.emailTo')}{' '}
        <strong translate={saved.email ? 'no' : undefined}>
          {saved.email ?? t('deliverySettings.noAddress')}
        </strong>
      </p>
      <label>
        <input type="checkbox" checked={emailOn} onChange={(e) => setEmailOn(e.target.checked)} />
        {t('deliverySettings.sendEmail')}
      </label>
      <DigestHourField id={`${id}-hour`} value={digestHour} onChange={setDigestHour} />
      <label htmlFor={`${id}-zone`}>{t('deliverySettings.timeZone')}</label>
      <input
        id={`${id}-zone`}
        value={timeZone}
        maxLength={64}
        onChange={(e) => setTimeZone(e.target.value)}
      />
      <QuietHoursField
        on={quiet}
        onOn={setQuiet}
        start={start}
        onStart={setStart}
        end={end}
        onEnd={setEnd}
      />
      <LanguageField id={`${id}-language`} value={language} onChange={setLanguage} />
      {save.isError ? <p role="alert">{save.error.message}</p> : null}
      {save.isSuccess ? <p role="status">{t('deliverySettings.saved')}</p> : null}
      <button type="submit" disabled={save.isPending}>
        {t('deliverySettings.save')}
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
    <section className="panel" aria-label={t('deliverySettings.panel')}>
      <h2>{t('deliverySettings.heading')}</h2>
      {settings.isError ? <p role="alert">{settings.error.message}</p> : null}
      {data ? <SettingsForm key={data.version} saved={data} save={save} /> : null}
    </section>
  );
}
