import { cn } from '@client/lib/utils';
import type { BlockDiff, FormattingChange, TextChange } from '@shared/diff/document-diff';

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

const QUOTED_LENGTH = 40;

function quoted(text: string): string {
  const short = text.length > QUOTED_LENGTH ? `${text.slice(0, QUOTED_LENGTH - 1)}…` : text;
  return `“${short}”`;
}

/** One formatting difference in words, read as "since this version" like the rest of the diff. */
function describeFormattingChange({ label, before, after }: FormattingChange): string {
  if (label === 'Alignment') return `Alignment ${before} → ${after}`;
  if (after === null) return `${label} removed from ${quoted(before ?? '')}`;
  if (before === null) return `${label} added to ${quoted(after)}`;
  return `${label} moved from ${quoted(before)} to ${quoted(after)}`;
}

/**
 * Formatting that differs (font, size, colour, alignment, bold…): the words may be the same, but restoring the
 * version brings its formatting back, so it is shown.
 */
function FormattingNote({ changes }: { changes: readonly FormattingChange[] }) {
  if (changes.length === 0) return null;
  return (
    <p className="mt-1 text-xs text-muted-foreground not-italic" data-testid="formatting-change">
      <span className="font-medium text-foreground">Formatting changed since this version:</span>{' '}
      {changes.map(describeFormattingChange).join('; ')}
    </p>
  );
}

function DiffBlock({ diff }: { diff: BlockDiff }) {
  const block = <DiffBlockBody diff={diff} />;
  if (diff.formatting.length === 0) return block;
  return (
    <div>
      {block}
      <FormattingNote changes={diff.formatting} />
    </div>
  );
}

function DiffBlockBody({ diff }: { diff: BlockDiff }) {
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
    // The document's headings, one level under its title (h4) in the panel.
    return (
      <div
        role="heading"
        aria-level={Math.min(6, 4 + (block.level ?? 1))}
        className={cn('font-semibold', size, edge)}
      >
        {text}
      </div>
    );
  }
  if (block.type === 'codeBlock') {
    return (
      <pre className={cn('whitespace-pre-wrap rounded-md bg-muted p-3 font-mono text-sm', edge)}>{text}</pre>
    );
  }
  const inList = block.container === 'bulletList' || block.container === 'orderedList';
  return (
    <p className={cn('whitespace-pre-wrap', inList && 'flex gap-2 pl-2', edge)}>
      {/* Later paragraphs of an item have no marker; the empty slot keeps them aligned with the item's text. */}
      {inList && (
        <span className="min-w-[1.5em] shrink-0 text-right tabular-nums" data-testid="list-marker">
          {block.marker ?? ''}
        </span>
      )}
      <span className="min-h-[1em]">{text}</span>
    </p>
  );
}
