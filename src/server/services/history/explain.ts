import { changesBetween } from '../../../shared/method-api.js';
import type { MethodMark } from '../../../shared/method-api.js';
import type { Categories } from '../../../shared/schemas/category.js';
import { BadRequest, NotFound } from '../../refusals.js';
import type { CountryRow, HistoryStore } from '../../store/history-store.js';
import { teamExplanation } from '../team-index/team-explain.js';
import type { TeamLens } from '../team-index/team-view.js';

/** Events listed in an explanation (the newest); `events` counts them all up to this. */
const MAX_EVENTS = 100;

export interface CategoryDriver {
  category: string;
  delta_score: number | null;
  /** The category's weight in the newer batch (0.2 is 20 %). */
  weight: number | null;
  delta_static: number | null;
  delta_active: number | null;
}

const diff = (a: number | null | undefined, b: number | null | undefined): number | null =>
  a == null || b == null ? null : Math.round((b - a) * 100) / 100;
const signed = (value: number): string => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(1)}`;
const words = (category: string): string => category.replace(/_/g, ' ');

function drivers(before: Categories | null, after: Categories | null): CategoryDriver[] {
  if (!after) return [];
  return Object.entries(after)
    .map(([category, now]) => {
      const then = before?.[category];
      return {
        category,
        delta_score: diff(then?.score, now.score),
        weight: now.weight ?? null,
        delta_static: diff(then?.static, now.static),
        delta_active: diff(then?.active, now.active),
      };
    })
    .sort(
      (a, b) =>
        Math.abs(b.delta_score ?? 0) - Math.abs(a.delta_score ?? 0) ||
        a.category.localeCompare(b.category),
    );
}

/** "Risk +6.0: security +14.0 (weight 20 %), civil unrest +9.0 …; 3 breaking events since". */
export function explanationSentence(
  deltaRisk: number | null,
  moved: CategoryDriver[],
  breaking: number,
): string {
  const top = moved
    .filter((d) => d.delta_score !== null && d.delta_score !== 0)
    .slice(0, 3)
    .map((d) => {
      const weight = d.weight == null ? '' : ` (weight ${Math.round(d.weight * 100)} %)`;
      return `${words(d.category)} ${signed(d.delta_score ?? 0)}${weight}`;
    });
  const more = moved.filter((d) => d.delta_score).length > 3 ? ' …' : '';
  const head = deltaRisk === null ? 'Risk unknown' : `Risk ${signed(deltaRisk)}`;
  const cats = top.length > 0 ? `: ${top.join(', ')}${more}` : ': no category moved';
  const events = `${breaking} breaking event${breaking === 1 ? '' : 's'} since`;
  return `${head}${cats}; ${events}`;
}

/** Why a country's score moved between two recorded batches, from the store alone. */
export class MoveExplanations {
  constructor(
    private readonly store: HistoryStore,
    /** The method changes held (the history answers' memo: no store question once held). */
    private readonly methodMarks: () => Promise<MethodMark[]>,
  ) {}

  /**
   * `teamLens` (issue 31, `?index=team`): the team view's lens for the newer batch; the answer
   * then explains the team index's move, the provider's beside it (team-index/team-explain.ts).
   */
  async explain(
    iso: string,
    from: Date | null,
    to: Date | null,
    teamLens?: (newer: Date) => Promise<TeamLens>,
  ): Promise<object> {
    const after = await this.store.batchAtOrBefore(to);
    if (!after) throw new BadRequest('to is before the first recorded batch');
    const before = from
      ? await this.store.batchAtOrBefore(from)
      : (await this.store.batches({ from: null, to: new Date(after.asOf.getTime() - 1) }))
          .filter((b) => b.countryCount > 0)
          .at(-1);
    if (!before) throw new BadRequest('there is no recorded batch before the one compared');
    if (before.asOf >= after.asOf) throw new BadRequest('from must name a batch before to');
    const row = async (batchId: number): Promise<CountryRow | undefined> =>
      (await this.store.countryRows(batchId)).find((r) => r.iso === iso);
    const [then, now] = [await row(before.id), await row(after.id)];
    if (!then || !now) throw new NotFound(`${iso} is not in both batches compared`);
    const events = (
      await this.store.events({
        isos: [iso],
        q: null,
        from: before.asOf,
        to: after.asOf,
        role: null,
        breaking: null,
        before: null,
        limit: MAX_EVENTS,
      })
    ).filter((e) => e.ts > before.asOf);
    const breaking = events.filter((e) => e.breaking).length;
    const moved = drivers(then.categories, now.categories);
    const deltaRisk = diff(then.risk, now.risk);
    const ids = await this.store.chainIds([before.id, after.id]);
    const method = await this.#methodWords(before.asOf, after.asOf);
    const answer = {
      ok: true,
      iso,
      from_batch: { as_of: before.asOf.toISOString(), id: ids.get(before.id) ?? null },
      to_batch: { as_of: after.asOf.toISOString(), id: ids.get(after.id) ?? null },
      delta_risk: deltaRisk,
      delta_static: diff(then.static, now.static),
      delta_active: diff(then.active, now.active),
      categories: moved,
      events: events.map((e) => ({
        ts: e.ts.toISOString(),
        headline: e.headline,
        source: e.source,
        breaking: e.breaking,
      })),
      breaking_events: breaking,
      // How much the newer figure rests on (issue 33, point 4): the provider's own confidence and
      // how many sources it counted; a move on confidence 19 and no sources says so.
      confidence: now.confidence ?? null,
      source_count: now.sourceCount ?? null,
      // A method change between the batches is named first: the move may be the new scale.
      method_changes: method.crossed,
      sentence: `${method.words}${explanationSentence(deltaRisk, moved, breaking)}`,
    };
    if (!teamLens) return answer;
    const rows = { iso, then: then.categories, now: now.categories };
    return teamExplanation(answer, rows, await teamLens(after.asOf));
  }

  /** The method changes (not marked comparable) between two batches, and the words for them. */
  async #methodWords(from: Date, to: Date) {
    const crossed = changesBetween(
      await this.methodMarks(),
      from.toISOString(),
      to.toISOString(),
    ).filter((c) => !c.comparable);
    const words = crossed
      .map((c) => `The provider changed its method from ${c.from} to ${c.to}: not comparable. `)
      .join('');
    return { crossed, words };
  }
}
