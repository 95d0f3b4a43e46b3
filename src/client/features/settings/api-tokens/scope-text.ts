import type { ApiTokenScope } from '@shared/schemas/api-tokens';

/** How a scope is named in the token settings and the connected apps. */
export const SCOPE_TEXT: Record<ApiTokenScope, { label: string; hint: string }> = {
  read: { label: 'Read', hint: 'List, read, search and export documents' },
  write: { label: 'Write', hint: 'Also create, change and delete documents' },
  comment: { label: 'Comment', hint: 'Read, and comment on passages' },
  suggest: { label: 'Suggest', hint: 'Read only; changes through the API are refused' },
};
