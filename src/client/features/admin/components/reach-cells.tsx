/** `2026-11-20 08:00 UTC`, or "never" for a credential not used yet. */
export function when(iso: string | null): string {
  return iso === null ? 'never' : `${iso.slice(0, 16).replace('T', ' ')} UTC`;
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
      <td data-label="Expires">{when(item.expires_at)}</td>
      <td data-label={words.lastUse}>{when(item.last_used_at)}</td>
      <td data-label={words.uses}>{item.uses}</td>
      <td>
        <button type="button" disabled={props.revoking} onClick={() => props.onRevoke(item.id)}>
          Revoke<span className="visually-hidden">: {item.name}</span>
        </button>
      </td>
    </>
  );
}
