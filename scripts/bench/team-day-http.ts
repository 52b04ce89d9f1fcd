import { Agent, get } from 'node:http';
import { expectedAnswer, type Visit } from './team-day.js';

/** What the analysts saw when the day was replayed over HTTP. */
export interface ReplayResult {
  requests: number;
  userErrors: Array<{ url: string; status: number }>;
  staleServes: number;
  /** Answers by X-Cache (`none` for routes that are not cached, such as /api/status). */
  cache: Record<string, number>;
  asOfSeen: string[];
  /** How late (virtual ms) the latest visit started after its planned moment. */
  maxLagMs: number;
  /**
   * How late (virtual ms) the latest request was sent after its visit's planned moment: the
   * visit's own earlier requests included. The reference day (inject, virtual clock standing
   * still during a visit) sends every request at its visit's moment; a replay whose requests
   * drift far from theirs measures a different day.
   */
  maxRequestLagMs: number;
  /** Every request as sent: its analyst, URL and the virtual moment it went out, in that order. */
  sent: Visit[];
  wallMs: number;
}

export interface ReplayOptions {
  /** Where the analysts' browsers send their requests: nginx, or one BFF. */
  baseUrl: string;
  visits: Visit[];
  /** The virtual clock the servers also read (scripts/bench/warped-clock.mjs). */
  now: () => number;
  /** Virtual ms per real ms: how long to wait (real time) for a visit's moment. */
  factor: number;
  /**
   * The analyst's own address (loopback 127.0.0.2 and up, so that nginx forwards a different
   * X-Forwarded-For for each, as it would for 50 people's machines); null: the system's choice.
   */
  clientAddress?: ((analyst: number) => string) | null;
}

interface Answer {
  status: number;
  xCache: string;
  json: { stale?: boolean; as_of?: string } | null;
}

function request(url: string, agent: Agent, localAddress: string | undefined): Promise<Answer> {
  return new Promise((resolve) => {
    const req = get(url, { agent, localAddress }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const type = String(res.headers['content-type'] ?? '');
        let json: Answer['json'] = null;
        if (type.startsWith('application/json')) {
          try {
            json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Answer['json'];
          } catch {
            json = null;
          }
        }
        resolve({
          status: res.statusCode ?? 0,
          xCache: String(res.headers['x-cache'] ?? 'none'),
          json,
        });
      });
      res.on('error', () => resolve({ status: 0, xCache: 'none', json: null }));
    });
    // A refused or reset connection is a user-visible error like any bad status.
    req.on('error', () => resolve({ status: 0, xCache: 'none', json: null }));
  });
}

/**
 * Replays the team day's visits over real HTTP, each at its moment on the virtual clock: a visit
 * starts when its time comes, whether or not earlier visits have finished (analysts do not wait
 * for each other), and sends its requests one after another as a page does. Each analyst has
 * its own keep-alive connections (and, on loopback, its own address).
 */
export async function replayTeamDay(options: ReplayOptions): Promise<ReplayResult> {
  const { visits, now, factor } = options;
  const agents = new Map<number, Agent>();
  const agentOf = (analyst: number): Agent => {
    let agent = agents.get(analyst);
    if (!agent) {
      agent = new Agent({ keepAlive: true, maxSockets: 4 });
      agents.set(analyst, agent);
    }
    return agent;
  };
  const result: ReplayResult = {
    requests: 0,
    userErrors: [],
    staleServes: 0,
    cache: {},
    asOfSeen: [],
    maxLagMs: 0,
    maxRequestLagMs: 0,
    sent: [],
    wallMs: 0,
  };
  const asOfSeen = new Set<string>();
  const started = performance.now();
  const inFlight = new Set<Promise<void>>();

  const runVisit = async (visit: Visit): Promise<void> => {
    const localAddress = options.clientAddress?.(visit.analyst);
    for (const path of visit.urls) {
      const at = now();
      result.maxRequestLagMs = Math.max(result.maxRequestLagMs, at - visit.at);
      result.sent.push({ at, analyst: visit.analyst, urls: [path] });
      const answer = await request(options.baseUrl + path, agentOf(visit.analyst), localAddress);
      result.requests++;
      result.cache[answer.xCache] = (result.cache[answer.xCache] ?? 0) + 1;
      if (!expectedAnswer(path, answer.status)) {
        result.userErrors.push({ url: path, status: answer.status });
      }
      if (answer.json?.stale) result.staleServes++;
      if (answer.json?.as_of) asOfSeen.add(answer.json.as_of);
    }
  };

  try {
    for (const visit of visits) {
      // Pacing, not waiting for a condition: the visit's moment on the shared virtual clock.
      const wait = (visit.at - now()) / factor;
      if (wait >= 1) await new Promise((done) => setTimeout(done, wait));
      result.maxLagMs = Math.max(result.maxLagMs, now() - visit.at);
      const running = runVisit(visit).finally(() => inFlight.delete(running));
      inFlight.add(running);
    }
    await Promise.all(inFlight);
  } finally {
    for (const agent of agents.values()) agent.destroy();
  }
  result.asOfSeen = [...asOfSeen].sort();
  result.wallMs = performance.now() - started;
  return result;
}
