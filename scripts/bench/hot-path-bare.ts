// The bare side of the hot-path benchmark (hot-path.ts), in its own process: node:http replaying
// the BFF's recorded answers, headers and bytes, the brotli one to requests that accept br.
// Prints one JSON line with its URL when ready.

import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

export interface RecordedAnswer {
  path: string;
  /** 'br' for the answer recorded with `Accept-Encoding: br`, null for identity. */
  encoding: 'br' | null;
  headers: Record<string, string>;
  /** The body as sent (compressed for br), base64. */
  body: string;
}

const [file] = process.argv.slice(2);
if (!file) throw new Error('usage: hot-path-bare.ts <recorded answers.json>');
const recorded = JSON.parse(readFileSync(file, 'utf8')) as RecordedAnswer[];
const answers = new Map(
  recorded.map((r) => {
    const body = Buffer.from(r.body, 'base64');
    return [
      `${r.encoding ?? ''} ${r.path}`,
      { headers: { ...r.headers, 'content-length': String(body.length) }, body },
    ];
  }),
);

const server = createServer((req, res) => {
  const accept = req.headers['accept-encoding'];
  const encoding = typeof accept === 'string' && accept.includes('br') ? 'br' : '';
  const answer = answers.get(`${encoding} ${req.url ?? ''}`);
  if (!answer) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, answer.headers);
  res.end(answer.body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stderr.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
process.on('SIGTERM', () => process.exit(0));
