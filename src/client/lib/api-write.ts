import type { z } from 'zod/mini';
import { bffErrorSchema } from '../../shared/bff-api';
import { ApiError } from './api-client';
import { t } from './i18n';

/** What a write answered: the parsed body and the new ETag (for the next If-Match). */
export interface Written<T> {
  data: T;
  etag: string | null;
}

/**
 * The one way the SPA changes something on the BFF: same-origin JSON, the server's plain-word
 * error kept as the message (a 412 says someone else edited first; the server's words are
 * English), the answer parsed; what the SPA says itself is in the reader's language.
 */
export async function writeBff<S extends z.ZodMiniType>(
  method: 'POST' | 'PUT' | 'DELETE',
  path: string,
  schema: S,
  options: {
    body?: unknown;
    ifMatch?: string | null;
    /** Sends `body` (a string) as it is under this type, e.g. a CSV file; otherwise as JSON. */
    contentType?: string;
  } = {},
): Promise<Written<z.infer<S>>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const raw = options.contentType !== undefined && typeof options.body === 'string';
  if (options.body !== undefined) {
    headers['Content-Type'] = raw ? (options.contentType ?? '') : 'application/json';
  }
  if (options.ifMatch) headers['If-Match'] = options.ifMatch;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body:
        options.body === undefined
          ? undefined
          : raw
            ? (options.body as string)
            : JSON.stringify(options.body),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(t('problems.unreachable'), 0);
  }
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // Not JSON: described by the status below.
  }
  if (!response.ok) {
    const error = bffErrorSchema.safeParse(body);
    throw new ApiError(
      error.success ? error.data.error : t('problems.statusOther', { status: response.status }),
      response.status,
    );
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ApiError(t('problems.unexpectedShape'), 0);
  return { data: parsed.data, etag: response.headers.get('ETag') };
}
