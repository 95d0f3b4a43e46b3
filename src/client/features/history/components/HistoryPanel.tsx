import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@client/components/ui/dialog';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@client/components/ui/dropdown-menu';
import { ToastAction } from '@client/components/ui/toast';
import { useToast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api';
import { cn } from '@client/lib/utils';
import { diffDocuments, hasChanges } from '@shared/diff/document-diff';
import type { ExportFormat } from '@shared/export/filename';
import type { RichTextDoc } from '@shared/schemas/richText';
import type { VersionAuthor, VersionSummary } from '@shared/schemas/versions';
import type { Editor } from '@tiptap/core';
import { ArrowLeft, Download, History, RotateCcw, Save, Trash2 } from 'lucide-react';
import { memo, useMemo, useState } from 'react';
import { groupByDay, initials, REASON_LABELS, timeLabel, versionTitle, dayLabel } from '../labels';
import { useDeleteVersion, useRestoreVersion, useVersion, useVersions } from '../queries';
import { VersionDiff } from './VersionDiff';
import { loadExportDocument } from '@client/features/export';

const EXPORT_FORMATS: { format: ExportFormat; label: string }[] = [
  { format: 'pdf', label: 'PDF' },
  { format: 'md', label: 'Markdown' },
  { format: 'html', label: 'HTML' },
  { format: 'txt', label: 'Plain text' },
  { format: 'docx', label: 'Word (.docx)' },
];

export interface HistoryPanelProps {
  documentId: string;
  editor: Editor | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSaveVersion: () => void;
}

/**
 * The document's history (toolbar History, Ctrl+Alt+H): versions newest first, grouped by day; the selected
 * one read-only with a word-level diff against the current document, restore and export.
 */
export function HistoryPanel({ documentId, editor, open, onOpenChange, onSaveVersion }: HistoryPanelProps) {
  const versions = useVersions(documentId, open);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const list = versions.data ?? [];
  const selected = list.find((version) => version.id === selectedId) ?? null;

  const changeOpen = (next: boolean) => {
    if (!next) setSelectedId(null);
    onOpenChange(next);
  };

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogContent
        className="flex h-[calc(100dvh-2rem)] max-w-6xl flex-col gap-0 overflow-hidden p-0 sm:max-w-6xl"
        data-testid="history-panel"
      >
        <div className="flex items-center gap-3 border-b px-4 py-3 pr-12">
          <History className="size-5 text-muted-foreground" aria-hidden="true" />
          <div className="min-w-0 flex-1">
            <DialogTitle>Version history</DialogTitle>
            <DialogDescription className="sr-only">
              Earlier versions of this document, with their differences from the current text.
            </DialogDescription>
          </div>
          <Button variant="outline" size="sm" onClick={onSaveVersion}>
            <Save /> Save version…
          </Button>
        </div>
        <div className="flex min-h-0 flex-1">
          <nav
            aria-label="Versions"
            className={cn(
              'min-h-0 w-full shrink-0 overflow-y-auto border-r md:block md:w-80',
              selected && 'hidden',
            )}
          >
            {versions.isPending ? (
              <p className="p-4 text-sm text-muted-foreground">Loading versions…</p>
            ) : versions.isError ? (
              <p className="p-4 text-sm text-destructive">{errorMessage(versions.error)}</p>
            ) : list.length === 0 ? (
              <p className="p-4 text-sm text-muted-foreground">
                No versions yet. They are taken automatically while you edit, or use Save version….
              </p>
            ) : (
              <VersionList versions={list} selectedId={selectedId} onSelect={setSelectedId} />
            )}
          </nav>
          <section className={cn('min-h-0 min-w-0 flex-1 flex-col', selected ? 'flex' : 'hidden md:flex')}>
            {selected ? (
              <VersionView
                key={selected.id}
                documentId={documentId}
                editor={editor}
                summary={selected}
                onBack={() => setSelectedId(null)}
                onRestored={() => changeOpen(false)}
              />
            ) : (
              <p className="m-auto max-w-xs p-6 text-center text-sm text-muted-foreground">
                Select a version to compare it with the current document.
              </p>
            )}
          </section>
        </div>
      </DialogContent>
    </Dialog>
  );
}

function VersionList({
  versions,
  selectedId,
  onSelect,
}: {
  versions: readonly VersionSummary[];
  selectedId: string | null;
  onSelect: (id: string) => void;
}) {
  const groups = useMemo(() => groupByDay(versions), [versions]);
  return (
    <div>
      {groups.map((group) => (
        <section key={group.day} aria-label={group.day}>
          <h3 className="sticky top-0 z-10 bg-background/95 px-4 py-2 text-xs font-semibold uppercase tracking-wide text-muted-foreground backdrop-blur">
            {group.day}
          </h3>
          <ul>
            {group.items.map((version) => (
              <VersionRow
                key={version.id}
                version={version}
                selected={version.id === selectedId}
                onSelect={onSelect}
              />
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

// Rows below the fold are neither laid out nor painted until scrolled to (content-visibility), so a long
// history opens as fast as a short one; classes are plain strings, not merged per row.
const ROW_CLASS =
  'flex w-full flex-col gap-1 px-4 py-2.5 text-left transition hover:bg-accent focus-visible:bg-accent focus-visible:outline-none';

const VersionRow = memo(function VersionRow({
  version,
  selected,
  onSelect,
}: {
  version: VersionSummary;
  selected: boolean;
  onSelect: (id: string) => void;
}) {
  return (
    <li className="[contain-intrinsic-size:auto_3.5rem] [content-visibility:auto]">
      <button
        type="button"
        onClick={() => onSelect(version.id)}
        aria-current={selected ? 'true' : undefined}
        data-testid="version-item"
        className={selected ? `${ROW_CLASS} bg-accent` : ROW_CLASS}
      >
        <span className="flex items-baseline justify-between gap-2">
          <span className={version.name ? 'truncate text-sm font-semibold' : 'truncate text-sm'}>
            {versionTitle(version)}
          </span>
          <time className="shrink-0 text-xs tabular-nums text-muted-foreground" dateTime={version.created_at}>
            {timeLabel(new Date(version.created_at))}
          </time>
        </span>
        <span className="flex items-center gap-2 text-xs text-muted-foreground">
          <Authors authors={version.authors} />
          <span className="truncate">
            {version.name ? `${REASON_LABELS.manual} · ` : ''}
            {version.word_count.toLocaleString()} words
          </span>
        </span>
      </button>
    </li>
  );
});

function Authors({ authors }: { authors: readonly VersionAuthor[] }) {
  if (authors.length === 0) return null;
  const names = authors.map((author) => author.name).join(', ');
  return (
    <span className="flex shrink-0 items-center" title={names} aria-label={`Changed by ${names}`}>
      {authors.slice(0, 3).map((author) => (
        <span
          key={author.id}
          aria-hidden="true"
          className={`-ml-1 flex size-5 items-center justify-center rounded-full border border-background text-[9px] font-semibold first:ml-0 ${
            author.id === 'ai' ? 'bg-violet-600 text-white' : 'bg-primary text-primary-foreground'
          }`}
        >
          {author.id === 'ai' ? 'AI' : initials(author.name)}
        </span>
      ))}
      {authors.length === 1 && <span className="ml-1.5 max-w-32 truncate">{authors[0]!.name}</span>}
    </span>
  );
}

function VersionView({
  documentId,
  editor,
  summary,
  onBack,
  onRestored,
}: {
  documentId: string;
  editor: Editor | null;
  summary: VersionSummary;
  onBack: () => void;
  onRestored: () => void;
}) {
  const version = useVersion(documentId, summary.id);
  const restore = useRestoreVersion(documentId);
  const remove = useDeleteVersion(documentId);
  const { toast } = useToast();
  // The current document when the version was opened: the diff does not jump while others type.
  const [current] = useState(() => (editor?.getJSON() as RichTextDoc | undefined) ?? null);
  const diff = useMemo(
    () => (version.data && current ? diffDocuments(version.data.content, current) : null),
    [version.data, current],
  );
  const label = versionTitle(summary);
  const when = `${dayLabel(new Date(summary.created_at))} ${timeLabel(new Date(summary.created_at))}`;

  const runRestore = async (versionId: string, undo: boolean) => {
    try {
      const restored = await restore.mutateAsync(versionId);
      onRestored();
      const replaced = restored.replaced_version_id;
      toast({
        title: undo ? 'Restore undone' : 'Version restored',
        description: undo
          ? 'The document is back as it was before the restore.'
          : `The document is now “${label}” from ${when}. The text it replaced is kept in the history.`,
        action:
          !undo && replaced ? (
            <ToastAction altText="Undo the restore" onClick={() => void runRestore(replaced, true)}>
              Undo
            </ToastAction>
          ) : undefined,
      });
    } catch (error) {
      toast({
        title: 'Could not restore the version',
        description: errorMessage(error),
        variant: 'destructive',
      });
    }
  };

  const runExport = async (format: ExportFormat) => {
    if (!version.data) return;
    try {
      const { exportDocument } = await loadExportDocument();
      await exportDocument(format, `${version.data.title} (${label})`, version.data.content);
      toast({ title: 'Export Successful', description: `Version exported as ${format.toUpperCase()}` });
    } catch {
      toast({
        title: 'Export Failed',
        description: 'Failed to export document. Please try again.',
        variant: 'destructive',
      });
    }
  };

  const runDelete = async () => {
    try {
      await remove.mutateAsync(summary.id);
      toast({ title: 'Version deleted', description: `“${label}” was removed from the history.` });
      onBack();
    } catch (error) {
      toast({
        title: 'Could not delete the version',
        description: errorMessage(error),
        variant: 'destructive',
      });
    }
  };

  return (
    <>
      <div className="flex flex-wrap items-center gap-2 border-b px-4 py-3">
        <Button
          variant="ghost"
          size="sm"
          className="md:hidden"
          onClick={onBack}
          aria-label="Back to versions"
        >
          <ArrowLeft />
        </Button>
        <div className="min-w-0 flex-1">
          <h3 className="truncate font-semibold" data-testid="version-heading">
            {label}
          </h3>
          <p className="text-xs text-muted-foreground">
            {when} · {REASON_LABELS[summary.reason]}
            {summary.authors.length > 0 && ` · ${summary.authors.map((a) => a.name).join(', ')}`}
          </p>
        </div>
        <div className="flex w-full flex-wrap items-center gap-2 md:w-auto">
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button variant="outline" size="sm" disabled={!version.data} aria-label="Export this version">
                <Download /> Export
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end">
              {EXPORT_FORMATS.map(({ format, label: formatLabel }) => (
                <DropdownMenuItem key={format} onSelect={() => void runExport(format)}>
                  {formatLabel}
                </DropdownMenuItem>
              ))}
            </DropdownMenuContent>
          </DropdownMenu>
          {summary.name && (
            <Button variant="outline" size="sm" onClick={() => void runDelete()} disabled={remove.isPending}>
              <Trash2 /> Delete
            </Button>
          )}
          <Button
            size="sm"
            onClick={() => void runRestore(summary.id, false)}
            disabled={!version.data || restore.isPending}
          >
            <RotateCcw /> {restore.isPending ? 'Restoring…' : 'Restore this version'}
          </Button>
        </div>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto px-4 py-4 sm:px-8">
        {version.isPending ? (
          <p className="text-sm text-muted-foreground">Loading version…</p>
        ) : version.isError ? (
          <p className="text-sm text-destructive">{errorMessage(version.error)}</p>
        ) : (
          <>
            {/* The document's title as it stood: the heading of the text below (the version's own heading is h3). */}
            <h4 className="mb-1 text-2xl font-bold tracking-tight">{version.data.title}</h4>
            <p className="mb-4 flex flex-wrap gap-3 text-xs text-muted-foreground">
              {diff && hasChanges(diff) ? (
                <>
                  <span>
                    <ins className="rounded-sm bg-emerald-100 px-1 text-emerald-950 dark:bg-emerald-500/25 dark:text-emerald-50">
                      Added since this version
                    </ins>
                  </span>
                  <span>
                    <del className="rounded-sm bg-rose-100 px-1 text-rose-950 dark:bg-rose-500/25 dark:text-rose-50">
                      Removed since this version
                    </del>
                  </span>
                </>
              ) : (
                <span>Same text as the current document.</span>
              )}
            </p>
            <VersionDiff diff={diff ?? []} />
          </>
        )}
      </div>
    </>
  );
}
