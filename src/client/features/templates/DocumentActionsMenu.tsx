import { LayoutTemplateIcon, Loader2Icon, PinIcon, PinOffIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { MAX_TEMPLATE_NAME_LENGTH } from '@shared/constants';
import { Button } from '@client/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@client/components/ui/dialog';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@client/components/ui/dropdown-menu';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { toast } from '@client/components/ui/use-toast';
import { usePinState, useSetPinned } from '@client/features/documents';
import { errorMessage } from '@client/lib/api';
import { DocumentActionsTrigger } from './DocumentActionsTrigger';
import { useTemplateMutations } from './queries';

export interface DocumentActionsMenuProps {
  documentId: string;
  title: string;
  defaultOpen?: boolean;
}

/** The editor header's Document actions: pin or unpin the document, save it as a template. */
export function DocumentActionsMenu({ documentId, title, defaultOpen = false }: DocumentActionsMenuProps) {
  const [menuOpen, setMenuOpen] = useState(defaultOpen);
  const [saving, setSaving] = useState(false);
  const pinState = usePinState(documentId, menuOpen);
  const setPinned = useSetPinned();
  const pinned = pinState.data?.pinned ?? false;

  const togglePin = () =>
    setPinned.mutate(
      { id: documentId, pinned: !pinned },
      {
        onSuccess: () =>
          toast({
            title: pinned ? 'Unpinned' : 'Pinned',
            description: pinned
              ? `'${title}' is no longer pinned.`
              : `'${title}' is pinned to the top of your documents.`,
          }),
        onError: (error) =>
          toast({ title: 'Error', description: errorMessage(error), variant: 'destructive' }),
      },
    );

  // Not modal: a modal menu aria-hides the page while its links and buttons stay focusable.
  return (
    <>
      <DropdownMenu modal={false} open={menuOpen} onOpenChange={setMenuOpen}>
        <DropdownMenuTrigger asChild>
          <DocumentActionsTrigger />
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="w-48">
          <DropdownMenuItem onSelect={togglePin} disabled={pinState.isLoading || setPinned.isPending}>
            {pinned ? <PinOffIcon aria-hidden="true" /> : <PinIcon aria-hidden="true" />}
            {pinned ? 'Unpin document' : 'Pin document'}
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => setSaving(true)}>
            <LayoutTemplateIcon aria-hidden="true" />
            Save as template
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <Dialog open={saving} onOpenChange={setSaving}>
        {saving ? (
          <SaveAsTemplate documentId={documentId} title={title} onDone={() => setSaving(false)} />
        ) : null}
      </Dialog>
    </>
  );
}

function SaveAsTemplate({
  documentId,
  title,
  onDone,
}: {
  documentId: string;
  title: string;
  onDone(): void;
}) {
  const [name, setName] = useState(title);
  const nameId = useId();
  const { save } = useTemplateMutations();
  return (
    <DialogContent>
      <form
        className="grid gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate(
            { documentId, name },
            {
              onSuccess: (template) => {
                onDone();
                toast({
                  title: 'Saved as template',
                  description: `'${template.name}' is in New from template on your dashboard.`,
                });
              },
              onError: (error) =>
                toast({
                  title: 'Error saving template',
                  description: errorMessage(error),
                  variant: 'destructive',
                }),
            },
          );
        }}
      >
        <DialogHeader>
          <DialogTitle>Save as template</DialogTitle>
          <DialogDescription>
            The template keeps this document’s title and text as they are now. Write {'{{title}}'} or{' '}
            {'{{date}}'} in either to have them filled in each new document.
          </DialogDescription>
        </DialogHeader>
        <div className="grid gap-1.5">
          <Label htmlFor={nameId}>Template name</Label>
          <Input
            id={nameId}
            value={name}
            maxLength={MAX_TEMPLATE_NAME_LENGTH}
            onChange={(event) => setName(event.target.value)}
            autoFocus
          />
        </div>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : null}
            Save template
          </Button>
        </DialogFooter>
      </form>
    </DialogContent>
  );
}
