import type { DocumentResponse } from '@shared/schemas/documents';
import type {
  SaveTemplateBody,
  TemplateList,
  TemplateSummary,
  UseTemplateBody,
} from '@shared/schemas/templates';
import { apiRequest } from '@client/lib/api';

/** Plain fetchers for /api/templates. Type-only schema imports keep zod out of the bundle. */

export const TEMPLATES_PATH = '/api/templates';
const templatePath = (id: string) => `${TEMPLATES_PATH}/${encodeURIComponent(id)}`;

export const templatesApi = {
  list: () => apiRequest<TemplateList>('GET', TEMPLATES_PATH),
  save: (body: SaveTemplateBody) => apiRequest<TemplateSummary>('POST', TEMPLATES_PATH, body),
  remove: (id: string) => apiRequest<null>('DELETE', templatePath(id)),
  use: (id: string, body: UseTemplateBody) =>
    apiRequest<DocumentResponse>('POST', `${templatePath(id)}/documents`, body),
};
