/**
 * The element the address's #fragment names, if it is on the page now. The landing page is code-split, so the
 * browser's own jump to a fragment happened before the element existed: the page jumps itself when it arrives.
 */
export function hashTarget(): HTMLElement | null {
  const id = window.location.hash.slice(1);
  return id ? document.getElementById(id) : null;
}
