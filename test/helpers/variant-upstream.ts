import { createServer, type Server } from 'node:http';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';

/**
 * A real HTTP upstream in front of the demo upstream that makes the choices a real service may
 * make where the document is silent (docs/upstream-gaps.md): a JSON export without a `countries`
 * array (or with countries as an object keyed by ISO code), and a CSV export with other column order, `.` between category and part, a missing and
 * an extra column, and comment lines in another order with an extra key. Auth, quota and
 * everything else stay the demo upstream's.
 */
export interface VariantUpstream {
  url: string;
  close(): Promise<void>;
}

function reshapeCsv(text: string): string {
  const lines = text.split(/\r?\n/);
  const comments = lines.filter((l) => l.startsWith('#')).reverse();
  comments.splice(1, 0, '# source: variant upstream');
  const rows = parse(lines.filter((l) => !l.startsWith('#')).join('\n'), {
    columns: true,
  }) as Record<string, string>[];
  const columns = Object.keys(rows[0] ?? {})
    .filter((c) => c !== 'lng')
    .reverse()
    .concat('region');
  const renamed = (c: string) => c.replace(/_(score|static|active|weight)$/, '.$1');
  const table = stringify(
    rows.map((row) => columns.map((c) => (c === 'region' ? 'somewhere, far' : (row[c] ?? '')))),
    { header: true, columns: columns.map(renamed) },
  );
  return `${comments.join('\n')}\n${table}`;
}

export interface VariantOptions {
  /** `drop` (default): the JSON export has no `countries`; `keyed`: an object keyed by ISO. */
  countries?: 'drop' | 'keyed';
}

function reshapeJson(body: string, countries: 'drop' | 'keyed'): string {
  const { countries: list, ...rest } = JSON.parse(body) as Record<string, unknown>;
  if (countries === 'drop') return JSON.stringify(rest, null, 2);
  const keyed = Object.fromEntries(
    (list as Array<Record<string, unknown>>).map(({ iso, ...country }) => [iso, country]),
  );
  return JSON.stringify({ ...rest, countries: keyed }, null, 2);
}

export async function startVariantUpstream(
  demoUrl: string,
  options: VariantOptions = {},
): Promise<VariantUpstream> {
  const server: Server = createServer((req, res) => {
    void (async () => {
      const upstream = await fetch(demoUrl + (req.url ?? '/'), {
        headers: { authorization: req.headers.authorization ?? '' },
      });
      let body = await upstream.text();
      const url = req.url ?? '';
      if (upstream.status === 200 && url.startsWith('/api/v1/export')) {
        if (url.includes('format=json')) {
          body = reshapeJson(body, options.countries ?? 'drop');
        } else {
          body = reshapeCsv(body);
        }
      }
      const headers: Record<string, string> = {};
      upstream.headers.forEach((value, name) => {
        if (name !== 'content-length' && name !== 'transfer-encoding') headers[name] = value;
      });
      res.writeHead(upstream.status, headers);
      res.end(body);
    })().catch(() => {
      res.writeHead(502);
      res.end();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((done) => server.close(() => done())),
  };
}
