import type { KeyboardEvent } from 'react';

/** Ctrl/⌘+Enter sends a comment; Enter alone is a new line in it. */
export function isSubmitKey(event: KeyboardEvent): boolean {
  return event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !event.nativeEvent.isComposing;
}
