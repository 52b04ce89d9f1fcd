import type { ChangesResponse } from '../../shared/history-api.js';
import type { Served } from '../services/rendering/render.js';
import { JSON_TYPE } from '../services/rendering/render.js';
import { teamChanges } from '../services/team-index/team-changes.js';
import {
  teamHistory,
  type TeamLens,
  type TeamView,
  type WeightsChoice,
} from '../services/team-index/team-view.js';
import { BadRequest } from './route-schema.js';

/*
 * `?index=team` on the routes that answer country figures (issue 31): the same answer, turned
 * into the team view (services/team-index/team-view.ts). The view depends on the weights and the
 * overrides, which change without a batch, so browsers revalidate it (`no-cache`); the BFF holds
 * each built answer per (batch, weights version, overrides) in the view (`TeamView.held`).
 */

const NO_STORE_WORDS = 'index=team needs the history store, and this server keeps no history';

export function teamOf(team: TeamView | null | undefined): TeamView {
  if (!team) throw new BadRequest(NO_STORE_WORDS);
  return team;
}

/**
 * A live answer (the newest batch) in the team view, held by the view per cached body, weights
 * and overrides (`kind` names the route and its query); refusals and errors pass as they were.
 */
export async function teamServed(
  served: Served,
  team: TeamView,
  kind: string,
  build: (body: never, lens: TeamLens) => object,
): Promise<Served> {
  if (served.status !== 200) return served;
  const lens = await team.now();
  const body = team.held(kind, served.body, lens, () =>
    Buffer.from(JSON.stringify(build(JSON.parse(served.body.toString('utf8')) as never, lens))),
  );
  const headers: Record<string, string> = { 'cache-control': 'private, no-cache' };
  for (const name of ['x-cache', 'age', 'x-stale-reason']) {
    const value = served.headers[name];
    if (value !== undefined) headers[name] = value;
  }
  return {
    status: 200,
    contentType: JSON_TYPE,
    body,
    headers,
    outcome: served.outcome,
  };
}

/**
 * A past batch's answer in the team view: the weights then unless `today` was asked for; held
 * by the view per batch (a recorded batch never changes), weights and overrides.
 */
export async function teamAsOf(
  team: TeamView | null | undefined,
  answer: object,
  choice: WeightsChoice | null,
  build: (body: never, lens: TeamLens) => object,
  kind: string,
): Promise<object> {
  const asOf = String((answer as { as_of?: unknown }).as_of);
  const view = teamOf(team);
  const lens = await view.at(new Date(asOf), choice ?? 'then');
  return view.held(`${kind}@${asOf}`, asOf, lens, () => build(answer as never, lens));
}

/** A country's history (the JSON the history route built) in the team view. */
export async function teamHistoryJson(
  team: TeamView | null | undefined,
  json: string,
  choice: WeightsChoice,
): Promise<string> {
  const view = teamOf(team);
  const body = JSON.parse(json) as Parameters<typeof teamHistory>[0];
  return JSON.stringify(await teamHistory(body, await view.forHistory(choice), choice));
}

/**
 * What changed (the JSON the history route built) in the team view: live, with today's weights
 * and the overrides in force (as the live hotspot list); as of a batch, with `choice`.
 */
export async function teamChangesJson(
  team: TeamView | null | undefined,
  json: string,
  choice: WeightsChoice | null,
): Promise<string> {
  const view = teamOf(team);
  const body = JSON.parse(json) as ChangesResponse;
  const to = body.to_batch ? new Date(body.to_batch.as_of) : null;
  const lens = choice && to ? await view.at(to, choice) : await view.now();
  const answer = await teamChanges(body, lens, view.scores);
  if ('computing' in answer) return JSON.stringify(answer.computing);
  // Held per provider answer (the memoised JSON: the same string while the batches stay),
  // weights and overrides, as the other team answers: built once, not per request.
  const kind = `changes@${body.from_batch?.as_of ?? ''}>${body.to_batch?.as_of ?? ''}`;
  return view.held(kind, json, lens, () => JSON.stringify(answer.build()));
}

/**
 * The lens "why it moved" in the team view explains with: live (no `to`), today's weights and
 * the overrides in force, as the live country page; as of a batch, the weights then unless
 * `today` was asked for, and the overrides in force at the newer batch.
 */
export function teamLensFor(
  team: TeamView | null | undefined,
  to: Date | null,
  choice: WeightsChoice | null,
): (newer: Date) => Promise<TeamLens> {
  const view = teamOf(team);
  return (newer) => (to ? view.at(newer, choice ?? 'then') : view.now());
}
