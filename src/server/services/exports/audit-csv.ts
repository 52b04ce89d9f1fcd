import { auditSentence } from '../../../shared/audit-words.js';
import { spreadsheetCell, spreadsheetTime } from '../../../shared/spreadsheet-cell.js';
import type { StoredAuditRow } from '../../store/audit.js';
import { csv, safeText } from './spreadsheet-csv.js';

const AUDIT_COLUMNS = [
  'Time (UTC)',
  'What happened',
  'Who',
  'E-mail',
  'Subject',
  'Signed in by',
  'Role',
  'Address',
  'Action',
  'Object',
  'Answer (HTTP status)',
  'Refused because',
  'Before (JSON)',
  'After (JSON)',
] as const;

const VIA_WORDS: Record<string, string> = {
  oidc: 'Identity provider',
  proxy: 'Sign-in proxy',
  'dashboard-token': 'Shared dashboard token',
  'api-token': 'API token',
  open: 'No sign-in configured',
  none: 'Not signed in',
};

const jsonCell = (value: unknown): string =>
  value === null || value === undefined ? '' : safeText(JSON.stringify(value));

/** The audit log as a spreadsheet, newest first, through the cell rules every CSV shares. */
export function auditCsv(rows: readonly StoredAuditRow[]): Buffer {
  return csv(
    AUDIT_COLUMNS,
    rows.map((row) => [
      spreadsheetTime(new Date(row.at).toISOString()),
      safeText(auditSentence({ who: { name: row.actorName }, ...row })),
      safeText(row.actorName),
      safeText(row.actorEmail),
      safeText(row.actorSubject),
      VIA_WORDS[row.actorVia] ?? safeText(row.actorVia),
      safeText(row.actorRole),
      safeText(row.address),
      safeText(row.action),
      safeText(row.object),
      spreadsheetCell(row.status),
      safeText(row.detail),
      jsonCell(row.before),
      jsonCell(row.after),
    ]),
  );
}

/** `audit-log-2026-11-24-0612.csv` (the time it was made, UTC). */
export function auditFileName(now: number): string {
  const iso = new Date(now).toISOString();
  return `audit-log-${iso.slice(0, 10)}-${iso.slice(11, 13)}${iso.slice(14, 16)}.csv`;
}
