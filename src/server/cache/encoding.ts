import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export type Encoding = 'br' | 'gzip';

/** Below this a compressed body saves less than the headers and the CPU cost. */
export const COMPRESS_FROM_BYTES = 1024;

/** The weak entity tag of a body: its SHA-1, so equal bytes get equal tags on every replica. */
export function etagOf(body: Buffer): string {
  return `W/"${createHash('sha1').update(body).digest('base64url')}"`;
}

/** A compressed representation of a cached body, with its own ETag. */
export interface Encoded {
  body: Buffer;
  etag: string;
  encoding: Encoding;
}

/**
 * Brotli quality 5: close to gzip's speed, ~15% smaller; quality 11 would block the event loop
 * for a few hundred ms on the first request of a 170 KB body. Callers memoise the result
 * (rendered-bodies.ts), so a cache hit compresses nothing.
 */
export function compress(body: Buffer, etag: string, encoding: Encoding): Encoded {
  const compressed =
    encoding === 'br'
      ? brotliCompressSync(body, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: 5,
            [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        })
      : gzipSync(body, { level: 6 });
  return { body: compressed, etag: variantEtag(etag, encoding), encoding };
}

/** `W/"abc"` becomes `W/"abc-gzip"`: a different representation needs a different validator. */
function variantEtag(etag: string, encoding: Encoding): string {
  return etag.endsWith('"') ? `${etag.slice(0, -1)}-${encoding}"` : `${etag}-${encoding}`;
}

/** The best encoding an `Accept-Encoding` value accepts (br, then gzip), or null for identity. */
export function pickEncoding(header: string | string[] | undefined): Encoding | null {
  if (typeof header !== 'string' || header === '') return null;
  const q = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim());
    if (!name) continue;
    let weight = 1;
    for (const param of params) {
      const match = /^q=([0-9.]+)$/.exec(param);
      if (match) weight = Number(match[1]);
    }
    q.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (name: Encoding): number => q.get(name) ?? q.get('*') ?? 0;
  const br = weightOf('br');
  const gzip = weightOf('gzip');
  if (br > 0 && br >= gzip) return 'br';
  if (gzip > 0) return 'gzip';
  return null;
}
