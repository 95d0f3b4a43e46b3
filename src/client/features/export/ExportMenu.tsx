import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@client/components/ui/dropdown-menu';
import { useToast } from '@client/components/ui/use-toast';
import type { ExportFormat } from '@shared/export/filename';
import type { RichTextDoc } from '@shared/schemas/richText';
import type { Editor } from '@tiptap/core';
import { FileCode2, FileText, FileType, Printer, ScrollText, type LucideIcon } from 'lucide-react';
import { ExportTrigger } from './ExportTrigger';

const FORMATS: { format: ExportFormat; label: string; name: string; icon: LucideIcon }[] = [
  { format: 'pdf', label: 'PDF', name: 'PDF', icon: Printer },
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

export function ExportMenu({ editor, title, defaultOpen = false }: ExportMenuProps) {
  const { toast } = useToast();

  const run = async (format: ExportFormat, name: string) => {
    if (!editor) return;
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
    <DropdownMenu modal={false} defaultOpen={defaultOpen && editor !== null}>
      <DropdownMenuTrigger asChild>
        <ExportTrigger disabled={!editor} />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        {FORMATS.map(({ format, label, name, icon: Icon }) => (
          <DropdownMenuItem key={format} onSelect={() => void run(format, name)}>
            <Icon /> {label}
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
