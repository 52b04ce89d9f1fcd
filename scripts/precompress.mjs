// Writes `.br` and `.gz` siblings of the built assets (dist/client/assets) after `vite build`, so
// the BFF serves them with @fastify/static's `preCompressed` and compresses nothing per request.
// Maximum levels: this runs once per build. A sibling that would not be smaller is not written
// (the server then sends the original). Plain Node ESM, no dependencies.
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

// A folder may be given (tests use a temporary one); the build uses the default.
const assets = process.argv[2] ?? fileURLToPath(new URL('../dist/client/assets/', import.meta.url));
/** Text formats only: images and fonts are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|map|wasm)$/;
const MIN_BYTES = 1024;

if (!existsSync(assets)) {
  console.error(`precompress: ${assets} is missing; run \`vite build\` first.`);
  process.exit(1);
}

let before = 0;
let afterBr = 0;
for (const name of readdirSync(assets)) {
  const file = join(assets, name);
  if (!COMPRESSIBLE.test(name) || !statSync(file).isFile()) continue;
  const source = readFileSync(file);
  const variants = {
    br: brotliCompressSync(source, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
      },
    }),
    gz: gzipSync(source, { level: 9 }),
  };
  for (const [extension, compressed] of Object.entries(variants)) {
    const target = `${file}.${extension}`;
    // A stale sibling from an earlier build must not outlive a file that is now left alone.
    if (source.length < MIN_BYTES || compressed.length >= source.length) {
      rmSync(target, { force: true });
      continue;
    }
    writeFileSync(target, compressed);
  }
  before += source.length;
  afterBr += Math.min(variants.br.length, source.length);
}
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
console.log(`precompress: ${kb(before)} of assets, ${kb(afterBr)} as brotli.`);
