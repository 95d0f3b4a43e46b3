/**
 * An image as text, wherever a reader of text only meets it (the plain-text export, what the AI reads):
 * `[Image: <alt text>]`, or `[Image without a description]`, and its caption on the next line when it has one.
 */
export function imageAsText(attrs: Record<string, unknown> | undefined): string {
  const text = (value: unknown) => (typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '');
  const alt = text(attrs?.alt);
  const caption = text(attrs?.title);
  const line = alt ? `[Image: ${alt}]` : '[Image without a description]';
  return caption ? `${line}\n${caption}` : line;
}
