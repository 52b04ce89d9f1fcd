import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { LRUCache } from 'lru-cache';
import { COMPRESS_FROM_BYTES, compress, pickEncoding, type Encoded } from '../../cache/encoding.js';

/**
 * Compressed forms of answers that did not come from the rendered bodies (store answers:
 * history, changes, events; lists of one's own watchlists, alerts …; the pages with the server's
 * frame), keyed by the body's digest: an answer that stays the same for a batch is compressed
 * once per batch and encoding, whoever asks. Bounded in bytes; an evicted form is simply
 * compressed again.
 */
export const ANSWER_MEMO_BYTES = 8 * 1024 * 1024;

/** Browsers send a handful of distinct Accept-Encoding values. */
const MAX_ENCODING_CHOICES = 64;

export class CompressedAnswers {
  readonly #memo: LRUCache<string, Encoded>;
  readonly #choices = new LRUCache<string, 'br' | 'gzip' | 'identity'>({
    max: MAX_ENCODING_CHOICES,
  });

  constructor(maxBytes = ANSWER_MEMO_BYTES) {
    this.#memo = new LRUCache<string, Encoded>({
      maxSize: maxBytes,
      sizeCalculation: (encoded) => encoded.body.length + 128,
    });
  }

  /** The body in the encoding the client accepts best, or null for identity. */
  encode(body: Buffer, etag: string | null, acceptEncoding: string): Encoded | null {
    let choice = this.#choices.get(acceptEncoding);
    if (choice === undefined) {
      choice = pickEncoding(acceptEncoding) ?? 'identity';
      this.#choices.set(acceptEncoding, choice);
    }
    if (choice === 'identity') return null;
    const digest = createHash('sha1').update(body).digest('base64url');
    const key = `${choice}|${etag ?? ''}|${digest}`;
    let encoded = this.#memo.get(key);
    if (!encoded) {
      encoded = compress(body, etag ?? `W/"${digest}"`, choice);
      this.#memo.set(key, encoded);
    }
    return encoded;
  }

  get bytes(): number {
    return this.#memo.calculatedSize;
  }
}

/**
 * JSON, and the HTML of the pages the server frames (routes/first-frame.ts; the plain index.html
 * goes out precompressed by the static handler). A framed page was 15 KB uncompressed, just over
 * the 14.6 KB a new connection's first round trip carries: one more round trip before the first
 * paint on a slow phone network.
 */
function isCompressible(type: unknown): boolean {
  return (
    typeof type === 'string' &&
    (type.startsWith('application/json') || type.startsWith('text/html'))
  );
}

/**
 * Every JSON answer and framed page of 1 KB or more goes out compressed when the client asks
 * (issue 32, point 5). The hot routes compress their rendered bodies themselves
 * (routes/respond.ts sendServed) and arrive here with Content-Encoding set: they pass with two
 * comparisons. A callback hook, not an async one, for the same reason as preload-hints.ts.
 */
export function installAnswerCompression(app: FastifyInstance, memo: CompressedAnswers): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    const accept = request.headers['accept-encoding'];
    if (typeof accept !== 'string' || accept === '') return done(null, payload);
    if (reply.statusCode < 200 || reply.statusCode === 204 || reply.statusCode === 304) {
      return done(null, payload);
    }
    if (reply.hasHeader('content-encoding')) return done(null, payload);
    if (!isCompressible(reply.getHeader('content-type'))) return done(null, payload);
    const body =
      typeof payload === 'string'
        ? Buffer.from(payload)
        : Buffer.isBuffer(payload)
          ? payload
          : null;
    // Streams (large exports) and empty answers go out as they are.
    if (body === null || body.length < COMPRESS_FROM_BYTES) return done(null, payload);
    reply.header('vary', 'Accept-Encoding');
    const etag = reply.getHeader('etag');
    const encoded = memo.encode(body, typeof etag === 'string' ? etag : null, accept);
    if (!encoded) return done(null, payload);
    reply.header('content-encoding', encoded.encoding);
    if (typeof etag === 'string') reply.header('etag', encoded.etag);
    reply.removeHeader('content-length');
    done(null, encoded.body);
  });
}
