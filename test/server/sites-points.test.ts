import { describe, expect, it } from 'vitest';
import { SitePoints } from '../../src/server/services/sites/site-points.js';
import type { SiteService } from '../../src/server/services/sites/site-service.js';
import type { SiteRow } from '../../src/server/store/sites.js';
import { SITES_MAX } from '../../src/shared/sites-api.js';

/*
 * The map's points are bounded by the sites' limit whatever the store hands over, and built once
 * per sites revision and newest batch (the same body, the same ETag, until either changes).
 */
function fakeSites(count: number) {
  const state = { revision: 1 };
  const rows = Array.from(
    { length: count },
    (_, i) =>
      ({
        id: i + 1,
        lat: 1,
        lng: 2,
        kind: 'office',
        name: `S${i}`,
        iso: 'POL',
        people: null,
      }) as unknown as SiteRow,
  );
  const sites = {
    all: async () => {
      return { revision: state.revision, rows };
    },
    batches: { at: async () => null },
  } as unknown as Pick<SiteService, 'all' | 'batches'>;
  return { sites, state };
}

describe('the sites layer points', () => {
  it('never holds more than the sites limit', async () => {
    const { sites } = fakeSites(SITES_MAX + 5);
    const served = await new SitePoints(sites).served();
    const body = JSON.parse(served.body.toString());
    expect(body.total).toBe(SITES_MAX);
    expect(body.id).toHaveLength(SITES_MAX);
    expect(body.people[0]).toBe(0);
    expect(body.tier[0]).toBeNull();
  });

  it('keeps one body per revision: the same ETag until a write raises it', async () => {
    const { sites, state } = fakeSites(3);
    const points = new SitePoints(sites);
    const first = await points.served();
    const again = await points.served();
    expect(again.body).toBe(first.body);
    state.revision = 2;
    const later = await points.served();
    expect(later.body).not.toBe(first.body);
    expect(later.headers.etag).toBe(first.headers.etag);
  });
});
