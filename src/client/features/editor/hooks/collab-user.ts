/** Presence colours for carets (readable on white, distinct from each other). */
const CARET_COLORS = [
  '#2563eb',
  '#db2777',
  '#16a34a',
  '#ea580c',
  '#7c3aed',
  '#0891b2',
  '#ca8a04',
  '#dc2626',
] as const;

/** A stable colour per user id, so a person keeps their colour across sessions and reloads. */
export function caretColorFor(userId: string): string {
  let hash = 0;
  for (let i = 0; i < userId.length; i += 1) hash = (hash * 31 + userId.charCodeAt(i)) | 0;
  return CARET_COLORS[Math.abs(hash) % CARET_COLORS.length] ?? CARET_COLORS[0];
}

/** The name shown on carets and in the user chip: the local part of the e-mail. */
export function displayNameFromEmail(email: string | null | undefined): string {
  if (!email) return 'Anonymous';
  const at = email.indexOf('@');
  return at > 0 ? email.slice(0, at) : email;
}
