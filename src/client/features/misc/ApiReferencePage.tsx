import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, Loader2Icon } from 'lucide-react';
import { Link } from 'wouter';
import { Badge } from '@client/components/ui/badge';
import { cn } from '@client/lib/utils';

export const OPENAPI_PATH = '/api/openapi.json';

interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: unknown;
}
interface Operation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters: Parameter[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
}
interface OpenApiDocument {
  info: { title: string; version: string; description: string };
  tags: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
}

const METHOD_STYLE: Record<string, string> = {
  get: 'bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200',
  post: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200',
  put: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  patch: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  delete: 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200',
};

async function fetchDocument(): Promise<OpenApiDocument> {
  const response = await fetch(OPENAPI_PATH);
  if (!response.ok) throw new Error(`The API description could not be loaded (${response.status}).`);
  return (await response.json()) as OpenApiDocument;
}

function Schema({ label, schema }: { label: string; schema: unknown }) {
  return (
    <details className="rounded-md border bg-muted/30 text-xs">
      <summary className="cursor-pointer px-3 py-1.5 font-medium">{label}</summary>
      <pre className="overflow-x-auto px-3 pb-3 font-mono leading-relaxed">
        {JSON.stringify(schema, null, 2)}
      </pre>
    </details>
  );
}

function OperationEntry({ method, path, operation }: { method: string; path: string; operation: Operation }) {
  const tokenScopes = operation.security.find((entry) => 'apiToken' in entry)?.apiToken;
  const body = operation.requestBody ? Object.entries(operation.requestBody.content)[0] : undefined;
  return (
    <li className="grid gap-2 py-4" id={operation.operationId} data-testid="api-operation">
      <h3 className="flex flex-wrap items-center gap-2 font-mono text-sm">
        <span className={cn('rounded px-1.5 py-0.5 text-xs font-bold uppercase', METHOD_STYLE[method])}>
          {method}
        </span>
        <span className="break-all">{path}</span>
      </h3>
      <p className="text-sm font-medium">{operation.summary}</p>
      {operation.description ? (
        <p className="text-sm text-muted-foreground">{operation.description.replace(/`/g, '')}</p>
      ) : null}
      {tokenScopes ? (
        <p className="flex flex-wrap items-center gap-1.5 text-xs text-muted-foreground">
          API token scopes:
          {tokenScopes.map((scope) => (
            <Badge key={scope} variant="secondary">
              {scope}
            </Badge>
          ))}
        </p>
      ) : null}
      {operation.parameters.length > 0 ? (
        <ul className="grid gap-0.5 text-xs">
          {operation.parameters.map((parameter) => (
            <li key={`${parameter.in}:${parameter.name}`}>
              <code className="font-mono">{parameter.name}</code>{' '}
              <span className="text-muted-foreground">
                ({parameter.in}
                {parameter.required ? ', required' : ''})
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {body ? <Schema label={`Request body (${body[0]})`} schema={body[1].schema} /> : null}
      {Object.entries(operation.responses).map(([status, response]) =>
        response.content ? (
          <Schema
            key={status}
            label={`${status === 'default' ? 'Error' : status} answer`}
            schema={Object.values(response.content)[0]?.schema}
          />
        ) : null,
      )}
    </li>
  );
}

/**
 * `/docs/api`: the REST API's reference, drawn from the server's own OpenAPI document (GET /api/openapi.json),
 * so it always describes the server it is served by.
 */
export function ApiReferencePage() {
  const document = useQuery({ queryKey: [OPENAPI_PATH], queryFn: fetchDocument });

  return (
    <main className="min-h-screen bg-background px-4 py-10 text-foreground">
      <div className="mx-auto grid w-full max-w-4xl gap-6">
        <Link
          href="/"
          className="flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
        >
          <ArrowLeft className="size-4" aria-hidden="true" />
          Back to Quillwright
        </Link>
        <header className="grid gap-2">
          <h1 className="text-3xl font-bold tracking-tight">REST API reference</h1>
          <p className="text-muted-foreground">
            Programs use this API with a personal API token, made in Account Settings → API tokens, sent as{' '}
            <code className="font-mono text-sm">Authorization: Bearer qw_pat_…</code>. Errors are{' '}
            <code className="font-mono text-sm">{'{ "message", "code" }'}</code>. The machine-readable
            description is{' '}
            <a className="underline underline-offset-2" href={OPENAPI_PATH}>
              openapi.json
            </a>{' '}
            (OpenAPI 3.1).
          </p>
        </header>
        {document.isLoading ? (
          <p role="status" className="flex items-center gap-2 text-muted-foreground">
            <Loader2Icon className="size-4 animate-spin" aria-hidden="true" />
            Loading…
          </p>
        ) : document.isError ? (
          <p role="alert" className="text-destructive">
            {document.error.message}
          </p>
        ) : document.data ? (
          <>
            <nav aria-label="Sections" className="flex flex-wrap gap-2 text-sm">
              {document.data.tags.map(({ name }) => (
                <a key={name} href={`#tag-${name}`} className="rounded-md border px-2 py-1 hover:bg-muted">
                  {name}
                </a>
              ))}
            </nav>
            {document.data.tags.map(({ name }) => (
              <section
                key={name}
                id={`tag-${name}`}
                aria-labelledby={`tag-heading-${name}`}
                className="grid gap-1"
              >
                <h2 id={`tag-heading-${name}`} className="text-xl font-semibold">
                  {name}
                </h2>
                <ul className="divide-y">
                  {Object.entries(document.data.paths).flatMap(([path, methods]) =>
                    Object.entries(methods)
                      .filter(([, operation]) => operation.tags.includes(name))
                      .map(([method, operation]) => (
                        <OperationEntry
                          key={`${method} ${path}`}
                          method={method}
                          path={path}
                          operation={operation}
                        />
                      )),
                  )}
                </ul>
              </section>
            ))}
            <p className="text-xs text-muted-foreground">Version {document.data.info.version}</p>
          </>
        ) : null}
      </div>
    </main>
  );
}
