import {
  MAX_DOCUMENT_TITLE_LENGTH,
  TEMPLATE_PREVIEW_CHARS,
  TEMPLATES_PER_USER,
} from '../../shared/constants';
import { renderPlainText } from '../../shared/export/plain-text';
import type { RichTextDoc } from '../../shared/schemas/richText';
import type { TemplateList, TemplateSummary } from '../../shared/schemas/templates';
import { BUILT_IN_TEMPLATES, findBuiltInTemplate } from '../../shared/templates/builtin';
import { fillDocument, fillText, readableDate } from '../../shared/templates/variables';
import { isUuid } from '../../shared/uuid';
import type { ServerDependencies } from '../dependencies';
import { documentForUser, type DocumentRecord } from '../documents';
import { conflict, notFound } from '../errors';
import * as repository from './repository';

/**
 * Templates: the built-in ones (shared/templates/builtin.ts) and each writer's own, which only that writer sees.
 * A document made from a template is created by the document writer like any other (so the plan limits apply),
 * with `{{date}}` and `{{title}}` filled in its title and text.
 */

export type TemplatesContext = Pick<ServerDependencies, 'db' | 'documentWriter'>;

const NOT_FOUND = () => notFound('Template not found', 'template_not_found');

function preview(content: RichTextDoc): string {
  const text = renderPlainText(content);
  return text.length > TEMPLATE_PREVIEW_CHARS ? `${text.slice(0, TEMPLATE_PREVIEW_CHARS).trimEnd()}…` : text;
}

function presentOwn(row: repository.TemplateRow): TemplateSummary {
  return {
    id: row.id,
    name: row.name,
    description: null,
    builtIn: false,
    title: row.title,
    preview: preview(row.content),
    created_at: row.createdAt.toISOString(),
  };
}

const BUILT_IN_SUMMARIES: readonly TemplateSummary[] = BUILT_IN_TEMPLATES.map((template) => ({
  id: template.id,
  name: template.name,
  description: template.description,
  builtIn: true,
  title: template.title,
  preview: preview(template.content),
  created_at: null,
}));

export async function templatesOf(ctx: TemplatesContext, userId: string): Promise<TemplateList> {
  const mine = await repository.listTemplatesOf(ctx.db, userId);
  return { builtIn: [...BUILT_IN_SUMMARIES], mine: mine.map(presentOwn) };
}

/** Copies the title and content of a document the writer may read into a new template of theirs. */
export async function saveAsTemplate(
  ctx: TemplatesContext,
  userId: string,
  input: { documentId: string; name?: string | undefined },
): Promise<TemplateSummary> {
  const document = await documentForUser(ctx, userId, input.documentId, 'read');
  const row = await repository.insertTemplate(
    ctx.db,
    { userId, name: input.name || document.title, title: document.title, content: document.content },
    TEMPLATES_PER_USER,
  );
  if (!row)
    throw conflict(
      `You can keep up to ${TEMPLATES_PER_USER} templates. Delete one to save another.`,
      'template_limit',
    );
  return presentOwn(row);
}

export async function removeTemplate(ctx: TemplatesContext, userId: string, id: string): Promise<void> {
  if (!isUuid(id) || !(await repository.deleteTemplate(ctx.db, userId, id))) throw NOT_FOUND();
}

/**
 * A new document of the writer's from a built-in template or one of theirs. `{{title}}` is the title asked for,
 * or the template's name when none was given; the document is named by the title asked for, or else by the
 * template's title with its variables filled.
 */
export async function createFromTemplate(
  ctx: TemplatesContext,
  userId: string,
  id: string,
  input: { date: string; title?: string | undefined },
): Promise<DocumentRecord> {
  const template =
    findBuiltInTemplate(id) ?? (isUuid(id) ? await repository.findTemplate(ctx.db, userId, id) : undefined);
  if (!template) throw NOT_FOUND();
  const variables = { date: readableDate(input.date), title: input.title || template.name };
  const title = (input.title || fillText(template.title, variables)).slice(0, MAX_DOCUMENT_TITLE_LENGTH);
  // Stored templates were valid when kept; repair mode carries them across later changes of the editor schema.
  const content = ctx.documentWriter.validate(fillDocument(template.content, variables), 'repair');
  return ctx.documentWriter.create({ ownerId: userId, title, content, source: 'template' });
}
