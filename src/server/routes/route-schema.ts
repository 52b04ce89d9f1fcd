import type { FastifySchema, FastifySchemaCompiler } from 'fastify';
import type { FastifyRouteSchemaDef, FastifySchemaValidationError } from 'fastify/types/schema.js';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { inputTextProblem } from '../../shared/user-text.js';
import { BadRequest } from '../refusals.js';

export { BadRequest, NotFound } from '../refusals.js';

type Ctx = z.RefinementCtx;

/** Quotes a caller's value for an error message: short, and free of control characters. */
export function shown(value: string): string {
  const clean = [...value].map((c) => (c < ' ' || c === '\u007f' ? '?' : c)).join('');
  return JSON.stringify(clean.length > 40 ? `${clean.slice(0, 40)}…` : clean);
}

/**
 * A value rule written as a function that throws BadRequest (its message names the parameter),
 * as a zod schema: the message becomes the issue's, so the 400 says what the rule says.
 */
export function rule<In, Out>(read: (value: In) => Out) {
  return (value: In, ctx: Ctx): Out => {
    try {
      return read(value);
    } catch (error) {
      if (!(error instanceof BadRequest)) throw error;
      ctx.addIssue({ code: 'custom', message: error.message });
      return z.NEVER;
    }
  };
}

/** A query value whose percent-encoding is not UTF-8 (`%FF`, `%C0%AF`, a stray `%`). */
export class UndecodableValue {
  readonly undecodable = true;
}

/**
 * Fastify's `querystringParser`: like its default (`+` is a space, repeats become a list), but a
 * value that cannot be decoded is marked instead of kept as its raw text, so `q=%FF` is a 400
 * rather than a search for the three characters "%FF".
 */
export function parseQuerystring(raw: string): Record<string, unknown> {
  const query: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const pair of raw.split('&')) {
    if (pair === '') continue;
    const cut = pair.indexOf('=');
    const name = decodeOr(cut === -1 ? pair : pair.slice(0, cut));
    const value = decodeOr(cut === -1 ? '' : pair.slice(cut + 1));
    const key = name instanceof UndecodableValue ? (cut === -1 ? pair : pair.slice(0, cut)) : name;
    const before = query[key];
    if (before === undefined) query[key] = value;
    else if (Array.isArray(before)) before.push(value);
    else query[key] = [before, value];
  }
  return query;
}

function decodeOr(text: string): string | UndecodableValue {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return new UndecodableValue();
  }
}

/** An optional query parameter: absent is undefined, one value a string (repeats are refused). */
export const optional = z.string().optional();

/**
 * A query string with exactly these parameters. Unknown parameters are refused rather than
 * ignored: a typo such as `tiers=crit` would otherwise silently return unfiltered data to a
 * script or spreadsheet. A parameter given twice is refused too (which one would win is a guess).
 * Checked before any value, so the caller hears about the typo first.
 */
export function queryOf<Shape extends z.ZodRawShape>(shape: Shape) {
  const allowed = Object.keys(shape);
  const list = allowed.length > 0 ? `allowed: ${allowed.join(', ')}` : 'it takes none';
  return z.preprocess((query, ctx) => {
    for (const [name, value] of Object.entries(query as Record<string, unknown>)) {
      if (!allowed.includes(name)) {
        ctx.addIssue({
          code: 'custom',
          message: `Unknown query parameter ${shown(name)} (${list})`,
        });
        return z.NEVER;
      }
      if (Array.isArray(value)) {
        ctx.addIssue({
          code: 'custom',
          message: `Query parameter ${name} was given more than once`,
        });
        return z.NEVER;
      }
      if (value instanceof UndecodableValue) {
        ctx.addIssue({
          code: 'custom',
          message: `Query parameter ${name} is not valid percent-encoded UTF-8`,
        });
        return z.NEVER;
      }
      // The one text rule (no control or bidi characters): before any value's own rule.
      const problem = typeof value === 'string' ? inputTextProblem(name, value) : null;
      if (problem !== null) {
        ctx.addIssue({ code: 'custom', message: problem });
        return z.NEVER;
      }
    }
    return query;
  }, z.object(shape));
}

/** Path parameters (`:iso`, `:id`): the one text rule first, then each one's own. */
export function paramsOf<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.preprocess((params, ctx) => {
    for (const [name, value] of Object.entries((params ?? {}) as Record<string, unknown>)) {
      const problem = typeof value === 'string' ? inputTextProblem(name, value) : null;
      if (problem !== null) {
        ctx.addIssue({ code: 'custom', message: problem });
        return z.NEVER;
      }
    }
    return params;
  }, z.object(shape));
}

type Validator = ReturnType<FastifySchemaCompiler<z.core.$ZodType>>;

/**
 * Runs the route's zod schema. Every message it can produce is ours (one line naming the
 * parameter); anything else zod says is replaced by the parameter's name, never passed on.
 */
function validate(schema: z.core.$ZodType, data: unknown): ReturnType<Validator> {
  const result = z.safeParse(schema, data);
  if (result.success) return { value: result.data };
  const errors: FastifySchemaValidationError[] = result.error.issues.map((issue) => ({
    keyword: issue.code,
    instancePath: `/${issue.path.join('/')}`,
    schemaPath: '',
    params: {},
    message:
      issue.code === 'custom'
        ? issue.message
        : `${issue.path.join('.') || 'the request'} is not valid here`,
  }));
  return { error: errors };
}

const validatorCompiler: FastifySchemaCompiler<z.core.$ZodType> =
  ({ schema }) =>
  (data) =>
    validate(schema, data);

/** The first problem, as it is: the error handler sends it as `{ok: false, error}` with a 400. */
function schemaErrorFormatter(errors: FastifySchemaValidationError[]): Error {
  return new Error(errors[0]?.message ?? 'The request is not valid');
}

/** Route options that validate with zod and answer a bad request in the house shape. */
export function zodRoute<S extends FastifySchema>(schema: S) {
  // Fastify types the compiler by the whole schema; it is called once per part (a zod schema).
  return {
    schema,
    validatorCompiler: validatorCompiler as unknown as FastifySchemaCompiler<S>,
    schemaErrorFormatter,
  };
}

/**
 * Like `zodRoute`, but query results (and refusals) are memoised by the query's values, bounded:
 * the hot dashboard URLs arrive over and over, and a hit should cost a lookup, not a parse.
 * One memo per call: the route that calls it owns it.
 */
export function memoisedQueryRoute<S extends FastifySchema>(schema: S, max = 500) {
  const memo = new LRUCache<string, ReturnType<Validator>>({ max });
  const compiler: FastifySchemaCompiler<z.core.$ZodType> = (
    def: FastifyRouteSchemaDef<z.core.$ZodType>,
  ) => {
    if (def.httpPart !== 'querystring') return validatorCompiler(def);
    return (data) => {
      const key = memoKey(data as Record<string, unknown>);
      if (key === null) return validate(def.schema, data);
      let result = memo.get(key);
      if (result === undefined) {
        result = validate(def.schema, data);
        memo.set(key, result);
      }
      return result;
    };
  };
  return {
    schema,
    validatorCompiler: compiler as unknown as FastifySchemaCompiler<S>,
    schemaErrorFormatter,
  };
}

/** Names and values in order; null (no memo) when a value repeats, as its text is ambiguous. */
function memoKey(query: Record<string, unknown>): string | null {
  let key = '';
  for (const name in query) {
    const value = query[name];
    if (typeof value !== 'string') return null;
    key += `${name}\u0000${value}\u0001`;
  }
  return key;
}
