import type { RichTextDoc, RichTextNode } from '../../shared/schemas/richText';
import type { TestServer } from '../test/server';

export async function upload(
  server: TestServer,
  token: string | undefined,
  name: string,
  body: string | Uint8Array,
  path = '/api/documents/import',
) {
  const form = new FormData();
  form.append('file', new Blob([typeof body === 'string' ? body : new Uint8Array(body)]), name);
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: form,
  });
  return { status: response.status, body: await response.json() };
}

/**
 * A document as a writer sees it: attributes at their default and the link target/rel (every link is
 * rendered with them) do not count.
 */
export function visible(doc: RichTextDoc): unknown {
  const clean = (nodes: RichTextNode[] | undefined): unknown[] | undefined =>
    nodes?.map((node) => {
      const attrs = Object.fromEntries(Object.entries(node.attrs ?? {}).filter(([, v]) => v !== null));
      const marks = node.marks?.map((mark) => ({
        type: mark.type,
        attrs: Object.fromEntries(
          Object.entries(mark.attrs ?? {}).filter(
            ([k, v]) =>
              v !== null && !(mark.type === 'link' && (k === 'target' || k === 'rel' || k === 'class')),
          ),
        ),
      }));
      return {
        type: node.type,
        ...(Object.keys(attrs).length ? { attrs } : {}),
        ...(marks ? { marks } : {}),
        ...(node.text !== undefined ? { text: node.text } : {}),
        ...(node.content ? { content: clean(node.content) } : {}),
      };
    });
  return { type: 'doc', content: clean(doc.content) };
}
