import { useTranslation } from 'react-i18next';
import { dismissToast, useToasts } from '../lib/toasts';

/** Where background-refresh failures appear; a polite live region so they are read out. */
export function Toaster() {
  const toasts = useToasts();
  const { t } = useTranslation();
  return (
    <div className="toaster" role="status" aria-live="polite">
      {toasts.map((toast) => (
        <div key={toast.id} className="toast">
          <p>{toast.message}</p>
          <button
            type="button"
            className="toast-close"
            aria-label={t('shell.dismiss')}
            onClick={() => dismissToast(toast.id)}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
