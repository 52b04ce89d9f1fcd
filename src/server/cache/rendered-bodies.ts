import { LRUCache } from 'lru-cache';
import { compress, etagOf, pickEncoding, type Encoded, type Encoding } from './encoding.js';

/** A serialised answer built from a cached entry, with its compressed forms once asked for. */
export interface RenderedBody {
  /** Its key in the memo (entry identity and variant). */
  key: string;
  body: Buffer;
  etag: string;
  encoded: Partial<Record<Encoding, Encoded>>;
}

/** Bookkeeping per record besides the bytes (key, object, map slot): a rough, safe figure. */
const OVERHEAD_BYTES = 256;
/** Browsers send a handful of distinct Accept-Encoding values. */
const MAX_ENCODING_CHOICES = 64;

function sizeOf(record: RenderedBody): number {
  let size = OVERHEAD_BYTES + record.key.length * 2 + record.body.length;
  for (const encoded of Object.values(record.encoded)) size += encoded.body.length;
  return size;
}

/**
 * Serialised answers per cached entry and variant (a hotspot limit and tier set, a country), so
 * a cache hit costs a lookup and a write: no JSON.stringify, no schema parsing, no compression.
 * One LRU bounded in bytes, compressed forms included: however many variants clients ask for,
 * this never holds more than `maxBytes`; an evicted variant is simply built again.
 */
export class RenderedBodies {
  readonly #lru: LRUCache<string, RenderedBody>;
  readonly #choices = new LRUCache<string, Encoding | 'identity'>({ max: MAX_ENCODING_CHOICES });
  /** Entry identity: a refetch of the same key is a new object, so it never reuses old bodies. */
  readonly #ids = new WeakMap<object, number>();
  #nextId = 0;
  #lastChoice: { header: string; encoding: Encoding | null } = { header: '', encoding: null };

  constructor(maxBytes: number) {
    this.#lru = new LRUCache<string, RenderedBody>({
      maxSize: maxBytes,
      sizeCalculation: sizeOf,
    });
  }

  get(entry: object, variant: string, build: () => unknown): RenderedBody {
    let id = this.#ids.get(entry);
    if (id === undefined) {
      id = this.#nextId++;
      this.#ids.set(entry, id);
    }
    const key = `${id}|${variant}`;
    let record = this.#lru.get(key);
    if (!record) {
      const body = Buffer.from(JSON.stringify(build()));
      record = { key, body, etag: etagOf(body), encoded: {} };
      this.#lru.set(key, record);
    }
    return record;
  }

  /** The form the client accepts best, compressed once per record; null for identity. */
  encode(record: RenderedBody, acceptEncoding: string | string[] | undefined): Encoded | null {
    const encoding = this.#choose(acceptEncoding);
    if (encoding === null) return null;
    let encoded = record.encoded[encoding];
    if (!encoded) {
      encoded = compress(record.body, record.etag, encoding);
      record.encoded[encoding] = encoded;
      // Re-set so the byte bound counts the compressed form too (if the record is still held).
      if (this.#lru.peek(record.key) === record) this.#lru.set(record.key, record);
    }
    return encoded;
  }

  /** Bytes held (bodies and compressed forms); never above the bound. */
  get bytes(): number {
    return this.#lru.calculatedSize;
  }

  get size(): number {
    return this.#lru.size;
  }

  #choose(header: string | string[] | undefined): Encoding | null {
    if (typeof header !== 'string' || header === '') return null;
    // Most answers go to the same few browsers: the last header first, then the memo.
    if (header === this.#lastChoice.header) return this.#lastChoice.encoding;
    let choice = this.#choices.get(header);
    if (choice === undefined) {
      choice = pickEncoding(header) ?? 'identity';
      this.#choices.set(header, choice);
    }
    const encoding = choice === 'identity' ? null : choice;
    this.#lastChoice = { header, encoding };
    return encoding;
  }
}
