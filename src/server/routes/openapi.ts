import swagger, { type SwaggerTransform } from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { bffErrorSchema } from '../../shared/bff-api.js';
import { apiOperations, type ApiOperation } from './api-description.js';
import { noQuery } from './params.js';
import { zodRoute } from './route-schema.js';

type JsonSchema = Record<string, unknown>;

/** The request parts a route declares with zod; Fastify validates them with our compiler. */
const PARTS = ['querystring', 'params', 'headers'] as const;

/**
 * Refusal helpers (`/api/v1/country/` without a code, the `/api/*` 404) answer an error and
 * take nothing: they are not operations to describe.
 */
export function isRefusalHelper(url: string): boolean {
  return url.endsWith('/') || url.includes('*');
}

/** `GET /api/x` as the description table keys it; null for HEAD (Fastify's automatic twin). */
export function operationKey(method: string | string[], url: string): string | null {
  const verb = Array.isArray(method) ? method[0] : method;
  return verb === undefined || verb === 'HEAD' ? null : `${verb} ${url}`;
}

/**
 * JSON Schema of a zod schema as a client sends it. `queryOf` wraps its object in a preprocess
 * step (the unknown-parameter check), which has no JSON Schema: describe the object inside.
 */
export function requestSchemaOf(schema: z.core.$ZodType): JsonSchema {
  let inner: z.core.$ZodType = schema;
  while (inner instanceof z.core.$ZodPipe && inner._zod.def.in instanceof z.core.$ZodTransform) {
    inner = inner._zod.def.out;
  }
  return z.toJSONSchema(inner, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

function answerSchemaOf(schema: z.core.$ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as JsonSchema;
}

const errorAnswer = {
  description: 'Refused or failed: `{ok: false, error}` in plain words',
  content: { 'application/json': { schema: answerSchemaOf(bffErrorSchema) } },
};

function responsesOf(operation: ApiOperation): Record<string, unknown> {
  const success = operation.success;
  const ok = success
    ? {
        [String(success.status)]: {
          description: 'Success',
          content: { 'application/json': { schema: answerSchemaOf(success.schema) } },
        },
      }
    : operation.produces
      ? { '200': { description: 'Success', content: { [operation.produces]: { schema: {} } } } }
      : { '200': { description: 'Success' } };
  return { ...ok, '4XX': errorAnswer, '5XX': errorAnswer };
}

/** Turns a registered route into its OpenAPI operation; everything outside the API is hidden. */
const describeRoute: SwaggerTransform = ({ schema, url, route }) => {
  const key = operationKey(route.method, url);
  const operation = key ? apiOperations[key] : undefined;
  if (!operation || !url.startsWith('/api/') || isRefusalHelper(url)) {
    return { schema: { hide: true }, url };
  }
  const described: Record<string, unknown> = {
    summary: operation.summary,
    tags: [operation.tag],
    response: responsesOf(operation),
  };
  const declared = (schema ?? {}) as Record<string, unknown>;
  for (const part of PARTS) {
    const value = declared[part];
    if (value instanceof z.core.$ZodType) described[part] = requestSchemaOf(value);
  }
  if (operation.body) described.body = requestSchemaOf(operation.body);
  return { schema: described, url };
};

/**
 * Why a route may not be registered as it is, or null: every API operation declares its query
 * (at least that it takes none, so a typo is refused) and is described in `apiOperations`.
 */
export function undocumented(
  method: string | string[],
  url: string,
  schema: unknown,
): string | null {
  const key = operationKey(method, url);
  if (key === null || !url.startsWith('/api/') || isRefusalHelper(url)) return null;
  if (!apiOperations[key]) return `${key} is not described in routes/api-description.ts`;
  const query = (schema as { querystring?: unknown } | undefined)?.querystring;
  if (!(query instanceof z.core.$ZodType)) return `${key} declares no querystring schema`;
  return null;
}

/**
 * Collects every route as it is registered (so it must come before the routes) and builds the
 * OpenAPI 3.1 document of the BFF's own API from their zod schemas and `apiOperations`.
 */
export async function describeApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Global Risk Dashboard BFF',
        version: '1',
        description:
          'The dashboard server’s own API. Data routes are answered from its cache of the Global ' +
          'Risk Index API; history, watchlists and alerts from its store. Errors are ' +
          '`{"ok": false, "error": "<plain words>"}`. Scripts authenticate with ' +
          '`Authorization: Bearer <DASHBOARD_TOKEN>` when the server requires a token.',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
    },
    transform: describeRoute,
  });
  // The document cannot drift from the routes: an undescribed route stops the app being built.
  app.addHook('onRoute', (route) => {
    const problem = undocumented(route.method, route.url, route.schema);
    if (problem) throw new Error(`OpenAPI: ${problem}`);
  });
}

/** `GET /api/openapi.json`: the document, built once from the registered routes. */
export async function openapiRoutes(app: FastifyInstance): Promise<void> {
  app.get('/api/openapi.json', zodRoute({ querystring: noQuery }), (_request, reply) =>
    reply.header('cache-control', 'no-cache').send(app.swagger()),
  );
}
