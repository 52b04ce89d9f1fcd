import { auditSentence } from '../../../shared/audit-words.js';
import { spreadsheetCell, spreadsheetTime } from '../../../shared/spreadsheet-cell.js';
import type { StoredAuditRow } from '../../store/audit.js';
import { outputsIn, type Outputs } from '../../../shared/i18n/outputs/translate.js';
import { csv, safeText, sheetHeader } from './spreadsheet-csv.js';

/** The columns, as keys of the `outputs` catalogue's `sheet` (the header row's language). */
const AUDIT_COLUMNS = [
  'time',
  'whatHappened',
  'who',
  'email',
  'subject',
  'signedInBy',
  'personRole',
  'address',
  'action',
  'object',
  'answerStatus',
  'refusedBecause',
  'beforeJson',
  'afterJson',
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
export function auditCsv(
  rows: readonly StoredAuditRow[],
  /** The header row's language (issue 34); the cells stay machine-readable (English words). */
  o: Outputs = outputsIn('en'),
): Buffer {
  return csv(
    sheetHeader(AUDIT_COLUMNS, o),
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
