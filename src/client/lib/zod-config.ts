import { config } from 'zod/mini';

// Zod compiles object parsers with `new Function` where it may, and probes for that as it builds
// the first object schema. Our CSP forbids eval: the probe failed, and the browser reported a CSP
// violation on every page load. Imported first by main.tsx, before any module builds a schema.
config({ jitless: true });
