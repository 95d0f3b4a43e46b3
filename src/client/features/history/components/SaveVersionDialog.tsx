import { Button } from '@client/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@client/components/ui/dialog';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { useToast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api';
import { MAX_VERSION_NAME_LENGTH } from '@shared/constants';
import { useState } from 'react';
import { useSaveVersion } from '../queries';

/** "Save version…" (Ctrl+Alt+S): names the document's current state; named versions are always kept. */
export function SaveVersionDialog({
  documentId,
  open,
  onOpenChange,
}: {
  documentId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [name, setName] = useState('');
  const save = useSaveVersion(documentId);
  const { toast } = useToast();

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return;
    try {
      await save.mutateAsync(trimmed);
      toast({ title: 'Version saved', description: `“${trimmed}” is kept in the document's history.` });
      setName('');
      onOpenChange(false);
    } catch (error) {
      toast({
        title: 'Could not save the version',
        description: errorMessage(error),
        variant: 'destructive',
      });
    }
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <form onSubmit={(event) => void submit(event)} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Save version</DialogTitle>
            <DialogDescription>
              Name the document as it is now. Named versions are kept until you delete them.
            </DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor="version-name">Version name</Label>
            <Input
              id="version-name"
              autoFocus
              value={name}
              maxLength={MAX_VERSION_NAME_LENGTH}
              placeholder="e.g. Sent to editor"
              onChange={(event) => setName(event.target.value)}
            />
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={!name.trim() || save.isPending}>
              {save.isPending ? 'Saving…' : 'Save version'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
