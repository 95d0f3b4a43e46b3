import { wordDiff } from '@client/lib/word-diff';

/** A word-level diff of `after` against `before`: added words marked, removed words struck through. */
export function WordDiff({ before, after }: { before: string; after: string }) {
  return (
    <span className="whitespace-pre-wrap">
      {wordDiff(before, after).map((part, index) =>
        part.type === 'same' ? (
          <span key={index}>{part.text}</span>
        ) : part.type === 'added' ? (
          <ins
            key={index}
            className="bg-green-100 text-green-900 no-underline dark:bg-green-900/40 dark:text-green-100"
          >
            {part.text}
          </ins>
        ) : (
          <del key={index} className="mr-1 bg-red-100 text-red-900 dark:bg-red-900/40 dark:text-red-100">
            {part.text}
          </del>
        ),
      )}
    </span>
  );
}
