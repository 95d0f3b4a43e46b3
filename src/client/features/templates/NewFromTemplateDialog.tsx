import { format } from 'date-fns';
import { FileTextIcon, LayoutTemplateIcon, Loader2Icon, Trash2Icon } from 'lucide-react';
import { useId, useState } from 'react';
import { MAX_DOCUMENT_TITLE_LENGTH } from '@shared/constants';
import type { DocumentResponse } from '@shared/schemas/documents';
import type { TemplateSummary } from '@shared/schemas/templates';
import { fillText, readableDate } from '@shared/templates/variables';
import { Button } from '@client/components/ui/button';
import { ChoiceGroup, ChoiceItem } from '@client/components/ui/choice-group';
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
import { toast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api';
import { useTemplateMutations, useTemplates } from './queries';

/**
 * "New from template": the built-in templates and the writer's own, a preview of the chosen one's opening
 * lines, and the title that fills `{{title}}`. The date is the writer's own (this browser's calendar day).
 */
export function NewFromTemplateDialog({
  open,
  onOpenChange,
  onCreated,
  onCreateError,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  onCreated(document: DocumentResponse): void;
  onCreateError(error: unknown): void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open ? <TemplatePicker onCreated={onCreated} onCreateError={onCreateError} /> : null}
    </Dialog>
  );
}

function TemplatePicker({
  onCreated,
  onCreateError,
}: {
  onCreated(document: DocumentResponse): void;
  onCreateError(error: unknown): void;
}) {
  const templates = useTemplates(true);
  const { use, remove } = useTemplateMutations();
  const [chosenId, setChosenId] = useState<string>();
  const [title, setTitle] = useState('');
  const titleId = useId();
  const builtIn = templates.data?.builtIn ?? [];
  const mine = templates.data?.mine ?? [];
  const all = [...builtIn, ...mine];
  const chosen = all.find((t) => t.id === chosenId) ?? all[0];
  const today = new Date();
  const defaultTitle = chosen
    ? fillText(chosen.title, { date: readableDate(format(today, 'yyyy-MM-dd')), title: chosen.name })
    : '';

  const create = () => {
    if (!chosen || use.isPending) return;
    use.mutate(
      { id: chosen.id, body: { date: format(today, 'yyyy-MM-dd'), title } },
      { onSuccess: onCreated, onError: onCreateError },
    );
  };

  const deleteChosen = (template: TemplateSummary) =>
    remove.mutate(template.id, {
      onSuccess: () => {
        setChosenId(undefined);
        toast({
          title: 'Template deleted',
          description: `'${template.name}' is no longer in your templates.`,
        });
      },
      onError: (error) =>
        toast({ title: 'Error deleting template', description: errorMessage(error), variant: 'destructive' }),
    });

  const item = (template: TemplateSummary) => (
    <ChoiceItem
      key={template.id}
      value={template.id}
      className="flex w-full items-center gap-2 rounded-md px-3 py-2 text-left text-sm hover:bg-accent/60 data-[state=checked]:bg-accent data-[state=checked]:font-medium data-[state=checked]:text-accent-foreground"
    >
      <FileTextIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      <span className="truncate">{template.name}</span>
    </ChoiceItem>
  );

  return (
    <DialogContent className="max-w-3xl gap-0 p-0">
      <DialogHeader className="border-b px-6 py-4">
        <DialogTitle>New from template</DialogTitle>
        <DialogDescription>
          Start a document from one of these; you can change everything after.
        </DialogDescription>
      </DialogHeader>
      {templates.isLoading ? (
        <div className="grid h-72 place-items-center" aria-busy="true">
          <Loader2Icon className="size-5 animate-spin text-muted-foreground" aria-label="Loading templates" />
        </div>
      ) : templates.isError ? (
        <p className="px-6 py-10 text-center text-sm text-destructive">{errorMessage(templates.error)}</p>
      ) : (
        <form
          className="grid sm:grid-cols-[14rem_1fr]"
          onSubmit={(event) => {
            event.preventDefault();
            create();
          }}
        >
          <ChoiceGroup
            aria-label="Templates"
            value={chosen?.id ?? ''}
            onValueChange={setChosenId}
            className="max-h-[50vh] overflow-y-auto border-b p-2 sm:max-h-[28rem] sm:border-r sm:border-b-0"
          >
            <p className="px-3 pt-1 pb-1 text-xs font-medium text-muted-foreground">Built-in</p>
            {builtIn.map(item)}
            <p className="px-3 pt-3 pb-1 text-xs font-medium text-muted-foreground">Your templates</p>
            {mine.length > 0 ? (
              mine.map(item)
            ) : (
              <p className="px-3 pb-2 text-xs text-muted-foreground">
                Save any document as a template from its Document actions menu in the editor.
              </p>
            )}
          </ChoiceGroup>
          {chosen ? (
            <div className="flex min-w-0 flex-col gap-4 p-6">
              <div className="flex items-start justify-between gap-3">
                <div className="min-w-0">
                  <h3 className="flex items-center gap-2 font-semibold">
                    <LayoutTemplateIcon className="size-4 text-primary" aria-hidden="true" />
                    {chosen.name}
                  </h3>
                  {chosen.description ? (
                    <p className="mt-1 text-sm text-muted-foreground">{chosen.description}</p>
                  ) : null}
                </div>
                {chosen.builtIn ? null : (
                  <Button
                    type="button"
                    variant="ghost"
                    size="sm"
                    onClick={() => deleteChosen(chosen)}
                    disabled={remove.isPending}
                  >
                    <Trash2Icon aria-hidden="true" />
                    Delete template
                  </Button>
                )}
              </div>
              <div
                className="relative max-h-48 overflow-hidden rounded-lg border bg-muted/40 px-4 py-3 text-sm leading-relaxed whitespace-pre-line text-muted-foreground after:pointer-events-none after:absolute after:inset-x-0 after:bottom-0 after:h-10 after:bg-gradient-to-t after:from-background/90 after:content-['']"
                data-testid="template-preview"
                aria-label={`Preview of ${chosen.name}`}
              >
                {chosen.preview || 'This template is empty.'}
              </div>
              <div className="grid gap-1.5">
                <Label htmlFor={titleId}>Title</Label>
                <Input
                  id={titleId}
                  value={title}
                  placeholder={defaultTitle}
                  maxLength={MAX_DOCUMENT_TITLE_LENGTH}
                  onChange={(event) => setTitle(event.target.value)}
                />
                <p className="text-xs text-muted-foreground">
                  Fills {'{{title}}'} in the template; {'{{date}}'} becomes today’s date.
                </p>
              </div>
              <DialogFooter className="mt-auto">
                <Button type="submit" disabled={use.isPending}>
                  {use.isPending ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : null}
                  Create document
                </Button>
              </DialogFooter>
            </div>
          ) : null}
        </form>
      )}
    </DialogContent>
  );
}
