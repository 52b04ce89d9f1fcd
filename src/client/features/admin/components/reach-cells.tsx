import { formatInteger, formatUtcDateTime } from '../../../lib/format';
import { t } from '../../../lib/i18n';

/** `20 Nov 2026, 08:00 UTC` in the page's language, or "never" for a credential not used yet. */
export function when(iso: string | null): string {
  return iso === null ? t('admin.never') : formatUtcDateTime(iso);
}

/**
 * The last cells of a feed token's or an embed's row: expiry, last use, use count and Revoke
 * (named for the row, for screen readers).
 */
export function UseCells(props: {
  item: { id: string; name: string; expires_at: string; last_used_at: string | null; uses: number };
  words: { lastUse: string; uses: string };
  revoking: boolean;
  onRevoke: (id: string) => void;
}) {
  const { item, words } = props;
  return (
    <>
      <td data-label={t('admin.expires')}>{when(item.expires_at)}</td>
      <td data-label={words.lastUse}>{when(item.last_used_at)}</td>
      <td data-label={words.uses}>{formatInteger(item.uses)}</td>
      <td>
        <button type="button" disabled={props.revoking} onClick={() => props.onRevoke(item.id)}>
          {t('admin.revoke')}
          <span className="visually-hidden" translate="no">
            : {item.name}
          </span>
        </button>
      </td>
    </>
  );
}
