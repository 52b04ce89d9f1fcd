/**
 * Event URLs come from news sources we do not control: only http(s) becomes a link. Anything
 * else (javascript:, data:, relative junk) yields null and the headline is shown as plain text.
 */
export function safeHttpUrl(raw: string | null | undefined): string | null {
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
}
