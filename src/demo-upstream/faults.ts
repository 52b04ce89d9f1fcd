import type { MethodChange } from './method-change.js';

/** Fault injection, for tests and demonstrations of how clients cope with a failing upstream. */
export interface DemoFaults {
  /** 0..1 share of requests answered 500/502/503 (after auth). */
  errorRate?: number;
  /** Added delay (ms) on every request. */
  latencyMs?: number;
  /** Every request answers 503 {"ok":false,"error":"..."}. */
  outage?: boolean;
  /** 0..1 share of 200s whose body is broken (an HTML page or truncated JSON). */
  malformedRate?: number;
  /** The provider changes its method: batches from then on are rescaled (method-change.ts). */
  methodChange?: MethodChange;
}

const FAILURES = [
  { status: 500, error: 'Internal error while reading the latest batch' },
  { status: 502, error: 'Bad gateway: the scoring backend did not answer' },
  { status: 503, error: 'Service temporarily unavailable: batch run in progress' },
] as const;

function happens(rate: number | undefined): boolean {
  // Math.random() < 1 always, < 0 never: rate 1 and 0 are exact.
  return rate !== undefined && rate > 0 && Math.random() < rate;
}

export function faultStatus(
  errorRate: number | undefined,
): { status: number; error: string } | null {
  if (!happens(errorRate)) return null;
  return FAILURES[Math.floor(Math.random() * FAILURES.length)] ?? FAILURES[0];
}

const HTML_PAGE =
  '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>' +
  '<body><h1>502 Bad Gateway</h1><p>The upstream server returned an invalid response.</p>' +
  '<hr><address>edge-proxy</address></body></html>\n';

/** A broken replacement for a 200 body, or null when this response is left intact. */
export function brokenBody(
  malformedRate: number | undefined,
  body: string,
  contentType: string,
): { body: string; contentType: string } | null {
  if (!happens(malformedRate)) return null;
  // JSON bodies are sometimes cut off mid-way; anything else (and the other half) gets the
  // HTML error page a misconfigured proxy would send with a 200.
  if (contentType.startsWith('application/json') && Math.random() < 0.5) {
    return { body: body.slice(0, Math.max(1, Math.floor(body.length / 2))), contentType };
  }
  return { body: HTML_PAGE, contentType: 'text/html; charset=utf-8' };
}

/** Rejects values that would silently mean something else (a rate of 5, a negative delay). */
export function checkFaults(faults: DemoFaults): DemoFaults {
  for (const name of ['errorRate', 'malformedRate'] as const) {
    const rate = faults[name];
    if (rate !== undefined && !(rate >= 0 && rate <= 1)) {
      throw new RangeError(`${name} must be between 0 and 1 (got ${rate})`);
    }
  }
  const latency = faults.latencyMs;
  if (latency !== undefined && !(Number.isFinite(latency) && latency >= 0)) {
    throw new RangeError(`latencyMs must be a non-negative number (got ${latency})`);
  }
  const from = faults.methodChange?.fromMs;
  if (from !== undefined && !Number.isFinite(from)) {
    throw new RangeError(`methodChange.fromMs must be a time in epoch ms (got ${from})`);
  }
  return { ...faults };
}
