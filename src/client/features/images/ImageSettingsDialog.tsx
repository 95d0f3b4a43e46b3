import type { Editor } from '@tiptap/core';
import { useEffect, useId, useState } from 'react';
import {
  IMAGE_ALIGNMENTS,
  IMAGE_WIDTHS,
  MAX_IMAGE_ALT_LENGTH,
  MAX_IMAGE_CAPTION_LENGTH,
} from '@shared/constants';
import type { ImageAlignment, ImageWidth } from '@shared/editor/image-node';
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
import { Textarea } from '@client/components/ui/textarea';
import { onImageEdit, type ImageEditRequest } from './image-upload';

const ALIGN_LABELS: Record<ImageAlignment, string> = { left: 'Left', center: 'Center', right: 'Right' };
const SEGMENT =
  'rounded-md border px-3 py-1.5 text-sm data-[state=checked]:border-primary data-[state=checked]:bg-primary data-[state=checked]:text-primary-foreground';

/**
 * The image's settings: its alt text (asked for as soon as an image is added, and from the button on every
 * image), its caption, its width in the text column and its alignment.
 */
export function ImageSettingsDialog({ editor }: { editor: Editor | null }) {
  const [request, setRequest] = useState<ImageEditRequest | null>(null);
  const [alt, setAlt] = useState('');
  const [caption, setCaption] = useState('');
  const [width, setWidth] = useState<ImageWidth>(100);
  const [align, setAlign] = useState<ImageAlignment>('center');
  const altId = useId();

  useEffect(() => {
    if (!editor) return;
    return onImageEdit(editor, (next) => {
      const position = next.position();
      const node = position === undefined ? null : editor.state.doc.nodeAt(position);
      if (!node || node.type.name !== 'image') return;
      setAlt(typeof node.attrs.alt === 'string' ? node.attrs.alt : '');
      setCaption(typeof node.attrs.title === 'string' ? node.attrs.title : '');
      setWidth((node.attrs.width as ImageWidth | undefined) ?? 100);
      setAlign((node.attrs.align as ImageAlignment | undefined) ?? 'center');
      setRequest(next);
    });
  }, [editor]);

  const save = () => {
    const position = request?.position();
    if (editor && position !== undefined && editor.state.doc.nodeAt(position)?.type.name === 'image') {
      const tr = editor.state.tr.setNodeMarkup(position, undefined, {
        ...editor.state.doc.nodeAt(position)!.attrs,
        alt: alt.trim() || null,
        title: caption.trim() || null,
        width,
        align,
      });
      editor.view.dispatch(tr);
    }
    setRequest(null);
  };

  return (
    <Dialog open={request !== null} onOpenChange={(open) => !open && setRequest(null)}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Image</DialogTitle>
          <DialogDescription>
            Describe the image for readers who cannot see it. Exports and the AI read this text too.
          </DialogDescription>
        </DialogHeader>
        <form
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            save();
          }}
        >
          <div className="grid gap-2">
            <Label htmlFor={altId}>Alt text</Label>
            <Textarea
              id={altId}
              value={alt}
              maxLength={MAX_IMAGE_ALT_LENGTH}
              rows={3}
              placeholder="e.g. A red bicycle leaning on a blue door"
              onChange={(event) => setAlt(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' && !event.shiftKey) {
                  event.preventDefault();
                  save();
                }
              }}
            />
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${altId}-caption`}>Caption</Label>
            <Input
              id={`${altId}-caption`}
              value={caption}
              maxLength={MAX_IMAGE_CAPTION_LENGTH}
              placeholder="Shown under the image (optional)"
              onChange={(event) => setCaption(event.target.value)}
            />
          </div>
          <div className="grid gap-2">
            <span className="text-sm font-medium" id={`${altId}-width`}>
              Width
            </span>
            <ChoiceGroup
              aria-labelledby={`${altId}-width`}
              className="flex gap-2"
              value={String(width)}
              onValueChange={(value) => setWidth(Number(value) as ImageWidth)}
            >
              {IMAGE_WIDTHS.map((value) => (
                <ChoiceItem key={value} value={String(value)} className={SEGMENT}>
                  {value}%
                </ChoiceItem>
              ))}
            </ChoiceGroup>
          </div>
          <div className="grid gap-2">
            <span className="text-sm font-medium" id={`${altId}-align`}>
              Alignment
            </span>
            <ChoiceGroup
              aria-labelledby={`${altId}-align`}
              className="flex gap-2"
              value={align}
              onValueChange={(value) => setAlign(value as ImageAlignment)}
            >
              {IMAGE_ALIGNMENTS.map((value) => (
                <ChoiceItem key={value} value={value} className={SEGMENT}>
                  {ALIGN_LABELS[value]}
                </ChoiceItem>
              ))}
            </ChoiceGroup>
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setRequest(null)}>
              Cancel
            </Button>
            <Button type="submit">Save</Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
