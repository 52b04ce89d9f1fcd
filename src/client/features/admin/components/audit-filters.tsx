import { AUDIT_FILTERS, type AuditFilters } from '../../../../shared/audit-api';
import { AUDIT_ACTIONS } from '../../../../shared/audit-words';
import { t } from '../../../lib/i18n';

/**
 * The audit page's filters (issue 33, point 13): a person, an action chosen by its words, an
 * object, and two dates (UTC; "until" takes in the whole of its day). Submitting puts them in
 * the URL; the form is remade from the URL, so Back shows the filters of that view.
 */
export function AuditFilterForm({
  filters,
  onApply,
}: {
  filters: AuditFilters;
  onApply: (next: AuditFilters) => void;
}) {
  const known = AUDIT_ACTIONS.some((item) => item.action === filters.action);
  return (
    <form
      className="audit-filters"
      aria-label={t('admin.filterLabel')}
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        const next: AuditFilters = {};
        for (const name of AUDIT_FILTERS) {
          const value = data.get(name);
          if (typeof value === 'string' && value.trim()) next[name] = value.trim();
        }
        onApply(next);
      }}
    >
      <label>
        {t('admin.person')}
        <input name="who" defaultValue={filters.who ?? ''} />
      </label>
      <label>
        {t('admin.action')}
        <select name="action" defaultValue={filters.action ?? ''}>
          <option value="">{t('admin.anyAction')}</option>
          {AUDIT_ACTIONS.map((item) => (
            <option key={item.action} value={item.action}>
              {t(`admin.action_${item.key}`)}
            </option>
          ))}
          {filters.action && !known ? (
            <option value={filters.action} translate="no">
              {filters.action}
            </option>
          ) : null}
        </select>
      </label>
      <label>
        {t('admin.object')}
        <input name="object" defaultValue={filters.object ?? ''} />
      </label>
      <label>
        {t('admin.from')}
        <input type="date" name="since" defaultValue={dateOf(filters.since)} />
      </label>
      <label>
        {t('admin.until')}
        <input type="date" name="until" defaultValue={dateOf(filters.until)} />
      </label>
      <button type="submit" className="button">
        {t('admin.show')}
      </button>
    </form>
  );
}

/** A date field holds a day: a link with a full time keeps its day here (and its time in the URL until changed). */
function dateOf(value: string | undefined): string {
  return value && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : '';
}
