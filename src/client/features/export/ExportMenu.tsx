import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@client/components/ui/dropdown-menu';
import { useToast } from '@client/components/ui/use-toast';
import type { ExportFormat } from '@shared/export/filename';
import type { RichTextDoc } from '@shared/schemas/richText';
import type { Editor } from '@tiptap/core';
import {
  BookOpen,
  BookText,
  FileCode2,
  FileDown,
  FileText,
  FileType,
  Printer,
  ScrollText,
  type LucideIcon,
} from 'lucide-react';
import { useState } from 'react';
import { CompileDialog } from '@client/features/compile';
import { authorizedFetch, errorMessage, toApiError } from '@client/lib/api';
import { ExportTrigger } from './ExportTrigger';

/** Made on the server (a book of one document): the saved text, as the server holds it. */
const SERVER_FORMATS = [
  { format: 'pdf', label: 'PDF', icon: FileDown },
  { format: 'epub', label: 'EPUB', icon: BookText },
] as const;

const FORMATS: { format: ExportFormat; label: string; name: string; icon: LucideIcon }[] = [
  { format: 'pdf', label: 'Print…', name: 'the print view', icon: Printer },
  { format: 'md', label: 'Markdown', name: 'MARKDOWN', icon: FileCode2 },
  { format: 'html', label: 'HTML', name: 'HTML', icon: ScrollText },
  { format: 'txt', label: 'Plain text', name: 'TXT', icon: FileText },
  { format: 'docx', label: 'Word (.docx)', name: 'DOCX', icon: FileType },
];

export interface ExportMenuProps {
  editor: Editor | null;
  title: string;
  documentId?: string;
  defaultOpen?: boolean;
}

export function ExportMenu({ editor, title, documentId, defaultOpen = false }: ExportMenuProps) {
  const { toast } = useToast();
  const [compiling, setCompiling] = useState(false);

  const serverFile = async (format: (typeof SERVER_FORMATS)[number]['format'] | 'docx', label: string) => {
    if (!documentId) return;
    try {
      const response = await authorizedFetch('GET', `/api/documents/${documentId}/export?format=${format}`);
      if (!response.ok) throw await toApiError(response);
      const match = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '');
      const url = URL.createObjectURL(await response.blob());
      const anchor = document.createElement('a');
      anchor.href = url;
      anchor.download = match?.[1] ?? `document.${format}`;
      anchor.rel = 'noopener';
      document.body.append(anchor);
      anchor.click();
      anchor.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      toast({ title: 'Export Successful', description: `Document exported as ${label}` });
    } catch (error) {
      toast({ title: 'Export Failed', description: errorMessage(error), variant: 'destructive' });
    }
  };

  const run = async (format: ExportFormat, name: string) => {
    if (!editor) return;
    // The server's Word file has the pictures (it reads their stored bytes); the browser's has their alt text.
    if (format === 'docx' && documentId) return serverFile(format, name);
    try {
      const { exportDocument } = await import('./export-document');
      await exportDocument(format, title, editor.getJSON() as RichTextDoc);
      toast({ title: 'Export Successful', description: `Document exported as ${name}` });
    } catch (error) {
      console.error('export failed', error);
      toast({
        title: 'Export Failed',
        description: 'Failed to export document. Please try again.',
        variant: 'destructive',
      });
    }
  };

  // Not modal: a modal menu aria-hides the page while its links and buttons stay focusable.
  return (
    <>
      <DropdownMenu modal={false} defaultOpen={defaultOpen && editor !== null}>
        <DropdownMenuTrigger asChild>
          <ExportTrigger disabled={!editor} />
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          {documentId
            ? SERVER_FORMATS.map(({ format, label, icon: Icon }) => (
                <DropdownMenuItem key={`server-${format}`} onSelect={() => void serverFile(format, label)}>
                  <Icon /> {label}
                </DropdownMenuItem>
              ))
            : null}
          {FORMATS.map(({ format, label, name, icon: Icon }) => (
            <DropdownMenuItem key={format} onSelect={() => void run(format, name)}>
              <Icon /> {label}
            </DropdownMenuItem>
          ))}
          {documentId ? (
            <>
              <DropdownMenuSeparator />
              <DropdownMenuItem onSelect={() => setCompiling(true)}>
                <BookOpen /> Compile book…
              </DropdownMenuItem>
            </>
          ) : null}
        </DropdownMenuContent>
      </DropdownMenu>
      <CompileDialog
        target={compiling && documentId ? { kind: 'document', id: documentId, name: title } : null}
        onDone={() => setCompiling(false)}
      />
    </>
  );
}
