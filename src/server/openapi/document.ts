import { z } from 'zod';
import { TOKEN_ROUTES } from '../api-tokens';
import { tokenMay } from '../documents';
import { API_TOKEN_SCOPES } from '../../shared/schemas/api-tokens';
import { APP_VERSION } from '../runtime/version';
import { IDEMPOTENT_ROUTES } from '../idempotency';
import { pageQuerySchema } from '../pagination';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '../../shared/constants';
import { OPERATIONS, type Operation } from './catalog';

/**
 * The OpenAPI 3.1 document of the REST API, built from the route catalog (catalog.ts) and the zod schemas the
 * routes parse their input with, through zod's own JSON Schema output (OpenAPI 3.1 schemas are JSON Schema
 * 2020-12). Built once per process: it changes only with the code.
 */

type JsonSchema = Record<string, unknown>;

const errorSchema: JsonSchema = {
  type: 'object',
  properties: { message: { type: 'string' }, code: { type: 'string' } },
  required: ['message', 'code'],
};

/** A Markdown body or answer (docs/api.md: converted as a .md import is, answered as a .md export is). */
const MARKDOWN_MEDIA = { schema: { type: 'string' } };

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    // Refinements and transforms cannot be said in JSON Schema; the shape around them still is.
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
}

/** `/api/documents/:id` → `/api/documents/{id}`, and the names of its path parameters. */
function openApiPath(path: string): { path: string; params: string[] } {
  const params: string[] = [];
  const converted = path.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
    params.push(name);
    return `{${name}}`;
  });
  return { path: converted, params };
}

/** The scopes that let a token call the route, or none when the route takes a session only. */
function tokenScopes(key: string): string[] {
  const ability = TOKEN_ROUTES[key];
  return ability ? API_TOKEN_SCOPES.filter((scope) => tokenMay([scope], ability)) : [];
}

function security(key: string, operation: Operation): Record<string, string[]>[] {
  if (operation.audience === 'public') return [];
  const scopes = tokenScopes(key);
  const schemes: Record<string, string[]>[] = [{ session: [] }];
  if (scopes.length > 0) schemes.push({ apiToken: scopes });
  if (operation.audience === 'share') schemes.push({ shareToken: [] }, {});
  return schemes;
}

function queryParameters(schema: z.ZodType | undefined) {
  if (!schema) return [];
  const object = jsonSchema(schema, 'input') as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: object.required?.includes(name) ?? false,
    schema: property,
  }));
}

function describeOperation(key: string, operation: Operation) {
  const [method, rawPath] = key.split(' ') as [string, string];
  const { params } = openApiPath(rawPath);
  const scopes = tokenScopes(key);
  const audience = {
    public: 'Anyone.',
    session: 'A signed-in user.',
    admin: 'An instance admin (others get 403 forbidden).',
    share: 'A signed-in user, or a share-link visitor with a share token.',
  }[operation.audience];
  const status = String(operation.status ?? 200);
  return {
    operationId: `${method.toLowerCase()}${rawPath.replace(/[/:{}.-]+(\w)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
    summary: operation.summary,
    description: `${audience} ${
      scopes.length > 0
        ? `API tokens with the ${scopes.map((scope) => `\`${scope}\``).join(' or ')} scope may call it.`
        : operation.audience === 'public'
          ? ''
          : 'API tokens may not call it (403 `api_token_not_allowed`).'
    }`.trim(),
    tags: [operation.tag],
    security: security(key, operation),
    parameters: [
      ...params.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
      ...queryParameters(operation.query),
      ...(operation.paged ? queryParameters(pageQuerySchema) : []),
      ...(IDEMPOTENT_ROUTES.has(key)
        ? [
            {
              name: 'Idempotency-Key',
              in: 'header',
              required: false,
              description:
                'Makes a retry safe: the same key and body within 24 hours replays the first answer (`Idempotent-Replayed: true`) and creates nothing more.',
              schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH },
            },
          ]
        : []),
    ],
    ...(operation.body
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: jsonSchema(operation.body, 'input') },
              ...(operation.markdown === 'write' ? { 'text/markdown': MARKDOWN_MEDIA } : {}),
            },
          },
        }
      : operation.upload
        ? {
            requestBody: {
              required: true,
              content: {
                'multipart/form-data': {
                  schema: {
                    type: 'object',
                    properties: {
                      files: {
                        type: 'array',
                        items: { type: 'string', contentMediaType: 'application/octet-stream' },
                      },
                    },
                  },
                },
              },
            },
          }
        : {}),
    responses: {
      [status]: {
        description: status === '204' ? 'Done; no content.' : 'Success.',
        ...(operation.paged
          ? {
              headers: {
                Link: {
                  description: 'The next page, `<…>; rel="next"`; absent on the last page.',
                  schema: { type: 'string' },
                },
              },
            }
          : {}),
        ...(operation.response
          ? { content: { 'application/json': { schema: jsonSchema(operation.response, 'output') } } }
          : operation.markdown === 'read'
            ? {
                content: {
                  'application/json': { schema: { type: 'object' } },
                  'text/markdown': MARKDOWN_MEDIA,
                },
              }
            : {}),
      },
      default: {
        description: 'An error: `code` says which (see docs/api.md).',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    },
  };
}

function buildDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [key, operation] of Object.entries(OPERATIONS)) {
    const [method, rawPath] = key.split(' ') as [string, string];
    const { path } = openApiPath(rawPath);
    (paths[path] ??= {})[method.toLowerCase()] = describeOperation(key, operation);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Quillwright REST API',
      version: APP_VERSION,
      description:
        'The REST API of a Quillwright server. Errors are `{ "message", "code" }`. Programs authenticate with a personal API token (Account Settings → API tokens): `Authorization: Bearer qw_pat_…`.',
    },
    servers: [{ url: '/' }],
    tags: [...new Set(Object.values(OPERATIONS).map((operation) => operation.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: { Error: errorSchema },
      securitySchemes: {
        session: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: "A signed-in session's access token (POST /api/auth/token).",
        },
        apiToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'A personal API token, `qw_pat_…`, narrowed to its scopes: read, write, suggest.',
        },
        shareToken: {
          type: 'http',
          scheme: 'bearer',
          description: "A share token from a shared document's page (GET /api/shared/{id}).",
        },
      },
    },
  };
}

let built: string | undefined;

/** The document as JSON text, built on first use. */
export function openApiJson(): string {
  built ??= JSON.stringify(buildDocument());
  return built;
}
