import { t } from '../../../lib/i18n';

/** A list's new webhook signing secret: shown once, never again. */
export function SecretOnce({ secret }: { secret: string }) {
  return (
    <div className="secret-once" role="status">
      <p>
        {t('watchlists.secretTitle')} <strong>{t('watchlists.secretOnce')}</strong>
      </p>
      <code>{secret}</code>
    </div>
  );
}
