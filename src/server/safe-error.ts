/**
 * Errors as the log and the terminal may show them. A failed query's error carries the query's
 * parameters (drizzle: "Failed query: … params: …" in its message, stack and `params`; the
 * driver's `detail`: "Failing row contains (…)"), and those can hold a webhook secret or a
 * session hash: whatever fails, they are dropped here, and known secret shapes are blanked.
 */

/** Fields of an error (at any depth) that hold values of a query or a credential. */
const DROPPED_FIELDS = new Set([
  'params',
  'parameters',
  'values',
  'detail',
  'where',
  'internalQuery',
  'authorization',
  'apiKey',
  'api_key',
  'key',
  'token',
  'password',
  'secret',
  'webhookSecret',
  'webhook_secret',
  'connectionString',
]);

const MAX_DEPTH = 5;
const MAX_ITEMS = 10;
const MAX_TEXT = 2_000;

/** Credentials that have a recognisable shape, wherever they appear in a text. */
const SECRET_SHAPES: Array<[RegExp, string]> = [
  [/whsec_[A-Za-z0-9+/=_-]+/g, 'whsec_[redacted]'],
  [/ar_live_[0-9A-Za-z]{16,}/g, 'ar_live_[redacted]'],
  // userinfo of a URL (postgres://user:password@host, smtp://user:pass@host)
  [/([a-z][a-z0-9+.-]*:\/\/[^\s/:@]*):[^\s/@]*@/gi, '$1:[redacted]@'],
];

/** The text without query parameters (drizzle appends them after "\nparams:") or secrets. */
export function scrubText(text: string): string {
  const cut = text.indexOf('\nparams:');
  let out = cut >= 0 ? text.slice(0, cut) : text;
  for (const [shape, replacement] of SECRET_SHAPES) out = out.replace(shape, replacement);
  return out.length > MAX_TEXT ? `${out.slice(0, MAX_TEXT)}…` : out;
}

function messageOf(error: object): string {
  const { message } = error as { message?: unknown };
  return typeof message === 'string' ? message : '';
}

/** The stack with its first line's message scrubbed (it repeats the message, params included). */
function scrubStack(stack: string, rawMessage: string, safeMessage: string): string {
  const at = rawMessage ? stack.indexOf(rawMessage) : -1;
  const rebuilt =
    at >= 0
      ? stack.slice(0, at) + safeMessage + stack.slice(at + rawMessage.length)
      : stack.replace(/\nparams:[\s\S]*?(?=\n {4}at |$)/, '');
  return scrubText(rebuilt.length > MAX_TEXT * 4 ? rebuilt.slice(0, MAX_TEXT * 4) : rebuilt);
}

function safeValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[nested]';
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((v) => safeValue(v, depth + 1));
  if (value instanceof Error || 'message' in value) return safeErrorAt(value, depth + 1);
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value).slice(0, MAX_ITEMS * 3)) {
    if (!DROPPED_FIELDS.has(name)) out[name] = safeValue(field, depth + 1);
  }
  return out;
}

function safeErrorAt(error: unknown, depth: number): Record<string, unknown> {
  if (error === null || typeof error !== 'object') {
    return { type: typeof error, message: scrubText(String(error)) };
  }
  const rawMessage = messageOf(error);
  const message = scrubText(rawMessage);
  const out: Record<string, unknown> = {
    type: (error as { name?: unknown }).name ?? error.constructor?.name ?? 'Error',
    message,
  };
  const { stack, cause } = error as { stack?: unknown; cause?: unknown };
  if (typeof stack === 'string') out.stack = scrubStack(stack, rawMessage, message);
  for (const [name, field] of Object.entries(error)) {
    if (name === 'message' || name === 'stack' || name === 'cause') continue;
    if (!DROPPED_FIELDS.has(name)) out[name] = safeValue(field, depth);
  }
  if (cause !== undefined) {
    out.cause = depth >= MAX_DEPTH ? '[nested]' : safeErrorAt(cause, depth + 1);
  }
  return out;
}

/** pino's `err` serializer: the error's fields, message, stack and causes, minus secrets. */
export function safeError(error: unknown): Record<string, unknown> {
  return safeErrorAt(error, 0);
}

/**
 * Anything thrown, as one line of plain words: an Error's message (and its cause's), a string,
 * an Emscripten/PGlite error object (`{errno, code}` with no message), else its JSON. Never
 * `[object Object]`, never query parameters or secrets.
 */
export function errorWords(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 3; depth++) {
    const words = ownWords(current);
    if (words && !parts.some((p) => p.includes(words))) parts.push(words);
    current = typeof current === 'object' ? (current as { cause?: unknown }).cause : undefined;
  }
  const line = parts.join(': ').replace(/\s+/g, ' ').trim();
  return line || 'an unknown error (it carried no description)';
}

/** Emscripten's own errno numbers (not the host's), as PGlite's bundle defines them. */
const EMSCRIPTEN_ERRNO: Record<number, [string, string]> = {
  2: ['EACCES', 'permission denied'],
  10: ['EBUSY', 'resource busy'],
  20: ['EEXIST', 'a file already exists where a folder or new file was wanted'],
  29: ['EIO', 'input/output error'],
  31: ['EISDIR', 'a folder is where a file was wanted'],
  33: ['EMFILE', 'too many open files'],
  41: ['ENFILE', 'too many open files in the system'],
  44: ['ENOENT', 'a file or folder is missing'],
  51: ['ENOSPC', 'no space left on the disk'],
  54: ['ENOTDIR', 'a file is where a folder was wanted'],
  63: ['EPERM', 'operation not permitted'],
  69: ['EROFS', 'the file system is read-only'],
};

function ownWords(value: unknown): string {
  if (typeof value !== 'object') return scrubText(String(value));
  const error = value as { message?: unknown; code?: unknown; errno?: unknown; name?: unknown };
  const message = typeof error.message === 'string' ? scrubText(error.message) : '';
  const code = typeof error.code === 'string' ? error.code : null;
  const errno = typeof error.errno === 'number' ? error.errno : null;
  if (message) return code && !message.includes(code) ? `${message} (${code})` : message;
  // Emscripten's ErrnoError (PGlite's file system) has an errno and no message.
  if (errno !== null && error.name === 'ErrnoError') {
    const known = EMSCRIPTEN_ERRNO[errno];
    return `the file system refused an operation of the embedded store: ${
      known ? `${known[1]} (${known[0]})` : `error number ${errno}`
    }`;
  }
  if (code || errno !== null) {
    const name = typeof error.name === 'string' ? error.name : 'error';
    return `${name}${code ? ` ${code}` : ''}${errno !== null ? ` (errno ${errno})` : ''}`;
  }
  try {
    return scrubText(JSON.stringify(safeValue(value, 0)) ?? '');
  } catch {
    return '';
  }
}
