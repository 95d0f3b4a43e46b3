import { Fragment } from 'react';

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};
const decode = (text: string) => text.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]!);

/**
 * A search snippet (escaped text with `<mark>` around matches) rendered as React text and <mark>
 * elements: never as HTML, so nothing in a document can become markup here.
 */
export function Snippet({ html, className }: { html: string; className?: string }) {
  const parts = html.split(/<mark>(.*?)<\/mark>/g);
  return (
    <span className={className}>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <mark key={i} className="rounded-sm bg-amber-200/80 px-0.5 text-inherit dark:bg-amber-500/40">
            {decode(part)}
          </mark>
        ) : (
          <Fragment key={i}>{decode(part)}</Fragment>
        ),
      )}
    </span>
  );
}
