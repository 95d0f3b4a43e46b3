import { useEffect, useMemo, useState } from 'react';
import { UUID_SOURCE } from '@shared/uuid';
import { parseImageSrc } from '@shared/editor/image-src';
import { ImageAccessTokens } from './access';
import type { ImageAuth } from './api';

const IMAGE_SRC_ATTRIBUTE = new RegExp(`src="(/api/documents/${UUID_SOURCE}/images/${UUID_SOURCE})"`, 'g');

/**
 * Rendered, sanitized HTML of a document (the shared page, a viewer's page) with its images' addresses
 * carrying their access token, which the sanitizer would not let through (the stored address has none).
 * Asks for a token only when the HTML holds an image.
 */
export function useHtmlWithImageAccess(html: string, auth: ImageAuth): string {
  const documentIds = useMemo(() => {
    const ids = new Set<string>();
    for (const match of html.matchAll(IMAGE_SRC_ATTRIBUTE)) {
      const id = parseImageSrc(match[1]!)?.documentId;
      if (id) ids.add(id);
    }
    return [...ids].join(',');
  }, [html]);
  const hasImages = documentIds !== '';
  const [tokens] = useState(() => new ImageAccessTokens(auth));
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (!hasImages) return;
    const off = documentIds.split(',').map((id) => tokens.subscribe(id, () => setVersion((v) => v + 1)));
    return () => off.forEach((unsubscribe) => unsubscribe());
  }, [tokens, hasImages, documentIds]);
  useEffect(() => () => tokens.dispose(), [tokens]);
  return useMemo(() => {
    void version;
    if (!hasImages) return html;
    return html.replace(IMAGE_SRC_ATTRIBUTE, (attribute, src: string) => {
      const id = parseImageSrc(src)?.documentId;
      const display = id ? tokens.displaySrc(id, src) : null;
      return display ? `src="${display.replace(/"/g, '&quot;')}"` : attribute;
    });
  }, [html, hasImages, tokens, version]);
}
