import type { Secret } from '../secret.js';

/** The upstream the app talks to: the real Risk API, or the demo started in this process. */
export interface ResolvedUpstream {
  mode: 'demo' | 'live';
  baseUrl: string;
  apiKey: Secret;
}
