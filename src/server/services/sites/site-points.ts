import { SITES_MAX, type SitePointsResponse } from '../../../shared/sites-api.js';
import { compress, pickEncoding, type Encoded, type Encoding } from '../../cache/encoding.js';
import { etagOf } from '../../cache/encoding.js';
import { JSON_TYPE, type Served } from '../rendering/render.js';
import type { SiteService } from './site-service.js';

interface HeldPoints {
  /** The sites revision and the newest batch the body was built from. */
  key: string;
  body: Buffer;
  etag: string;
  encoded: Partial<Record<Encoding, Encoded>>;
}

/**
 * `GET /api/sites/points`: the map's copy of every site, built once per sites revision and
 * newest batch (one body held, with its compressed forms), so the layer's question costs a
 * lookup, and a client holding the same ETag gets a 304.
 */
export class SitePoints {
  #held: HeldPoints | null = null;

  constructor(private readonly sites: Pick<SiteService, 'all' | 'batches'>) {}

  async served(): Promise<Served> {
    const [{ revision, rows }, latest] = await Promise.all([
      this.sites.all(),
      this.sites.batches.at(null),
    ]);
    const key = `${revision}|${latest?.batch.id ?? 'none'}`;
    if (this.#held?.key !== key) {
      // Bounded by the sites' limit: the store refuses a 20,001st site; never more than that here.
      const kept = rows.slice(0, SITES_MAX);
      const answer: SitePointsResponse = {
        ok: true,
        as_of: latest?.batch.asOf.toISOString() ?? null,
        total: kept.length,
        id: kept.map((row) => row.id),
        lat: kept.map((row) => row.lat),
        lng: kept.map((row) => row.lng),
        kind: kept.map((row) => row.kind),
        tier: kept.map((row) => latest?.byIso.get(row.iso)?.tier ?? null),
        name: kept.map((row) => row.name),
        iso: kept.map((row) => row.iso),
        people: kept.map((row) => row.people ?? 0),
      };
      const body = Buffer.from(JSON.stringify(answer));
      this.#held = { key, body, etag: etagOf(body), encoded: {} };
    }
    const held = this.#held;
    return {
      status: 200,
      contentType: JSON_TYPE,
      body: held.body,
      // Sites are sensitive: never stored by the browser or a proxy; the SPA keeps the ETag.
      headers: { etag: held.etag, 'cache-control': 'no-store' },
      outcome: null,
      compress: (accept) => {
        const encoding = pickEncoding(accept);
        if (encoding === null) return null;
        held.encoded[encoding] ??= compress(held.body, held.etag, encoding);
        return { ...held.encoded[encoding], encoding };
      },
    };
  }
}
