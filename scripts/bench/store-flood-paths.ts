// The questions of the store-query flood (scripts/bench/store-flood.ts), shared by the flooding
// clients and the per-kind cost measurement: each asks the store something no earlier question
// asked (a random time to the second), as a person moving a chart's range or searching would.

const WORDS = ['protest', 'flood', 'strike', 'border', 'election', 'attack', 'drought', 'talks'];
const DAY_MS = 86_400_000;

export const QUESTION_KINDS = [
  'country series',
  'global series',
  'changes',
  'event search',
  'event page',
] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

const pick = <T>(values: readonly T[]): T => values[Math.floor(Math.random() * values.length)]!;
/** A time to the second within the last 90 days: a question nobody asked before. */
const someTime = (): string =>
  new Date(Date.now() - Math.floor(Math.random() * 90 * DAY_MS)).toISOString().slice(0, 19) + 'Z';

/** One question of `kind`; `iso` fixes the country (else a random one of `codes`). */
export function questionPath(kind: QuestionKind, codes: readonly string[], iso?: string): string {
  switch (kind) {
    case 'country series':
      return `/api/history/country/${iso ?? pick(codes)}?from=${someTime()}`;
    case 'global series':
      return `/api/history/global?from=${someTime()}`;
    case 'changes':
      return `/api/changes?since=${someTime()}`;
    case 'event search':
      return `/api/events?q=${pick(WORDS)}&from=${someTime()}`;
    case 'event page':
      return `/api/events?iso=${iso ?? pick(codes)}&limit=100&to=${someTime()}`;
  }
}
