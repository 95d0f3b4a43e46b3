import type { MemberRole } from '@shared/schemas/people';

/** The roles, least to most, as the People section and "Shared with me" name them. */
export const ROLE_LABELS: Record<MemberRole, string> = {
  viewer: 'Can view',
  commenter: 'Can comment',
  suggester: 'Can suggest',
  editor: 'Can edit',
};
