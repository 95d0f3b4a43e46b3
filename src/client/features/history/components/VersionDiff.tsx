import { cn } from '@client/lib/utils';
import type { BlockDiff, TextChange } from '@shared/diff/document-diff';

/**
 * A document diff as readable text: insertions and deletions marked inline, whole added or removed blocks
 * marked at their edge as well, so a change is visible without colour too (underline, strike-through).
 */
export function VersionDiff({ diff }: { diff: readonly BlockDiff[] }) {
  if (diff.length === 0) {
    return <p className="text-sm text-muted-foreground">This version is empty.</p>;
  }
  return (
    <div className="space-y-2 text-[15px] leading-relaxed" data-testid="version-diff">
      {diff.map((block, index) => (
        <DiffBlock key={index} diff={block} />
      ))}
    </div>
  );
}

function Parts({ parts }: { parts: readonly TextChange[] }) {
  return (
    <>
      {parts.map((part, index) =>
        part.kind === 'insert' ? (
          <ins
            key={index}
            className="rounded-sm bg-emerald-100 text-emerald-950 underline decoration-emerald-600/60 dark:bg-emerald-500/25 dark:text-emerald-50"
          >
            {part.text}
          </ins>
        ) : part.kind === 'delete' ? (
          <del
            key={index}
            className="rounded-sm bg-rose-100 text-rose-950 decoration-rose-700/70 dark:bg-rose-500/25 dark:text-rose-50"
          >
            {part.text}
          </del>
        ) : (
          <span key={index}>{part.text}</span>
        ),
      )}
    </>
  );
}

function DiffBlock({ diff }: { diff: BlockDiff }) {
  const { block } = diff;
  const edge =
    diff.kind === 'insert'
      ? 'border-l-4 border-emerald-500 pl-3'
      : diff.kind === 'delete'
        ? 'border-l-4 border-rose-500 pl-3'
        : block.container === 'blockquote'
          ? 'border-l-4 border-border pl-3 italic'
          : '';
  const text = <Parts parts={diff.parts} />;
  if (block.type === 'horizontalRule') return <hr className={cn('my-4', edge)} />;
  if (block.type === 'heading') {
    const size = block.level === 1 ? 'text-2xl' : block.level === 2 ? 'text-xl' : 'text-lg';
    return <p className={cn('font-semibold', size, edge)}>{text}</p>;
  }
  if (block.type === 'codeBlock') {
    return (
      <pre className={cn('whitespace-pre-wrap rounded-md bg-muted p-3 font-mono text-sm', edge)}>{text}</pre>
    );
  }
  const marker = block.container === 'bulletList' ? '•' : block.container === 'orderedList' ? '–' : null;
  return (
    <p className={cn('whitespace-pre-wrap', marker && 'flex gap-2 pl-2', edge)}>
      {marker && <span aria-hidden="true">{marker}</span>}
      <span className="min-h-[1em]">{text}</span>
    </p>
  );
}
