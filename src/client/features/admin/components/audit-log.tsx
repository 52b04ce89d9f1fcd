import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { AUDIT_FILTERS, type AuditEntry, type AuditFilters } from '../../../../shared/audit-api';
import { auditSentence, type AuditSay } from '../../../../shared/audit-words';
import { QueryError } from '../../../components/query-error';
import { TableHead } from '../../../components/data-table';
import { Skeleton } from '../../../components/skeleton';
import { formatInteger } from '../../../lib/format';
import { t } from '../../../lib/i18n';
import { adminQueries, auditSearch } from '../api/admin-queries';
import { AuditFilterForm } from './audit-filters';

/** To the second, as the spreadsheet has it: ISO digits read the same in every language. */
function when(iso: string): string {
  return `${iso.slice(0, 19).replace('T', ' ')} UTC`;
}

/** The audit sentences in the page's language (shared/audit-words.ts says them by key). */
const say: AuditSay = (key, values) => t(`admin.${key}` as 'admin.nav', values ?? {});

function Change({ label, value }: { label: string; value: unknown }) {
  if (value === null || value === undefined) return null;
  return (
    <details>
      <summary>{label}</summary>
      <pre className="audit-json" translate="no">
        {JSON.stringify(value, null, 2)}
      </pre>
    </details>
  );
}

/** How the person signed in, in words; a way this page does not know, as stored. */
function viaWords(via: string): string {
  const key = `admin.via_${via}`;
  return t(key as 'admin.via_oidc', { defaultValue: via });
}

/** One entry; on a phone each row is a card, each cell labelled by its column (audit.css). */
function EntryRow({ entry }: { entry: AuditEntry }) {
  return (
    <tr>
      <td data-label={t('admin.when')}>
        <bdi>{when(entry.at)}</bdi>
      </td>
      <th scope="row" data-label={t('admin.whatHappened')}>
        {auditSentence(entry, say, formatInteger)}
      </th>
      <td data-label={t('admin.who')}>
        <span translate="no">
          {entry.who.email && entry.who.email !== entry.who.name ? `${entry.who.email}` : ''}
        </span>
        <span className="audit-via"> {viaWords(entry.who.via)}</span>
      </td>
      <td data-label={t('admin.address')} translate="no">
        {entry.address ?? ''}
      </td>
      <td data-label={t('admin.objectColumn')} translate="no">
        {entry.object ?? ''}
      </td>
      <td data-label={t('admin.outcome')}>
        {entry.status < 400
          ? t('admin.done', { status: entry.status })
          : t('admin.refused', { status: entry.status, detail: entry.detail ?? '' })}
      </td>
      <td data-label={t('admin.change')}>
        <Change label={t('admin.before')} value={entry.before} />
        <Change label={t('admin.after')} value={entry.after} />
      </td>
    </tr>
  );
}

function EntriesTable({ entries }: { entries: AuditEntry[] }) {
  const columns = [
    t('admin.when'),
    t('admin.whatHappened'),
    t('admin.emailVia'),
    t('admin.address'),
    t('admin.objectColumn'),
    t('admin.outcome'),
    t('admin.change'),
  ];
  return (
    <table className="audit-table phone-cards">
      <TableHead columns={columns.map((label) => ({ label }))} />
      <tbody>
        {entries.map((entry) => (
          <EntryRow key={entry.id} entry={entry} />
        ))}
      </tbody>
    </table>
  );
}

function filtersOf(params: URLSearchParams): AuditFilters {
  const filters: AuditFilters = {};
  for (const name of AUDIT_FILTERS) {
    const value = params.get(name);
    if (value) filters[name] = value;
  }
  return filters;
}

/**
 * The filters' search with the page's `?lang=` kept: a view's language stays in its URL, and the
 * spreadsheet's header row follows it (issue 34; without one the BFF chooses as the page did,
 * by the person's setting, then the browser's languages).
 */
function withLang(search: string, current: URLSearchParams): string {
  const next = new URLSearchParams(search.slice(1));
  const lang = current.get('lang');
  if (lang) next.set('lang', lang);
  const text = next.toString();
  return text === '' ? '' : `?${text}`;
}

/**
 * `/admin/audit`: the audit log, newest first, in plain words. Its filters and page live in the
 * URL (a link shows the same entries to another admin); the CSV link downloads the same filters.
 */
export function AuditLog() {
  const [params, setParams] = useSearchParams();
  const filters = filtersOf(params);
  const cursor = params.get('cursor');
  const page = useQuery(adminQueries.audit(filters, cursor));
  const older = page.data?.data.next_cursor;

  return (
    <section aria-labelledby="audit-heading" className="audit-log">
      <h2 id="audit-heading">{t('admin.auditHeading')}</h2>
      <AuditFilterForm
        key={params.toString()}
        filters={filters}
        onApply={(next) => setParams(new URLSearchParams(withLang(auditSearch(next), params)))}
      />
      <p>
        <a href={`/api/spreadsheet/audit.csv${withLang(auditSearch(filters), params)}`} download>
          {t('admin.downloadCsv')}
        </a>
      </p>
      {page.isPending ? (
        <Skeleton label={t('admin.loadingAudit')} />
      ) : page.isError ? (
        <QueryError error={page.error} what={t('admin.theAuditLog')} />
      ) : page.data.data.entries.length === 0 ? (
        <p>{t('admin.noEntries')}</p>
      ) : (
        <EntriesTable entries={page.data.data.entries} />
      )}
      {older ? (
        <button
          type="button"
          className="button"
          onClick={() => {
            const next = new URLSearchParams(params);
            next.set('cursor', older);
            setParams(next);
          }}
        >
          {t('admin.olderEntries')}
        </button>
      ) : null}
    </section>
  );
}
