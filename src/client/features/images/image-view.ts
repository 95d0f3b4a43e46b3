import type { Node as PmNode } from '@tiptap/pm/model';
import type { NodeView } from '@tiptap/pm/view';
import { IMAGE_WIDTHS } from '@shared/constants';
import { parseImageSrc } from '@shared/editor/image-src';
import { snapImageWidth, type ImageWidth } from '@shared/editor/image-node';
import type { ImageAccessTokens } from './access';

const ALIGN_CLASSES: Record<string, string> = { left: 'mr-auto', center: 'mx-auto', right: 'ml-auto' };
const HANDLE_CLASS =
  'qw-image-handle absolute top-1/2 z-10 h-10 w-3 -translate-y-1/2 cursor-ew-resize touch-none rounded-full ' +
  'border-2 border-background bg-primary shadow-sm opacity-0 transition-opacity group-hover:opacity-100 ' +
  'group-[.ProseMirror-selectednode]:opacity-100 focus-visible:opacity-100 focus-visible:outline-none ' +
  'focus-visible:ring-2 focus-visible:ring-ring';

type Side = 'left' | 'right';

/** The next width step from `current` in `direction` (keyboard resizing). */
function stepWidth(current: number, direction: 1 | -1): ImageWidth {
  const index = IMAGE_WIDTHS.indexOf(snapImageWidth(current));
  return IMAGE_WIDTHS[Math.min(IMAGE_WIDTHS.length - 1, Math.max(0, index + direction))]!;
}

/**
 * An image in the editor: the <img> with the access token added to its address (never stored), the alt text
 * as its alt, its caption under it, and a button that opens the image's settings. An image without alt text shows a small warning
 * on that button, so it is noticed without getting in the way. A writer resizes it with the handles on its
 * sides (shown on hover and when it is selected): dragging follows the pointer and lets go on the nearest
 * width step; a focused handle takes the arrow keys (one step), Home and End.
 */
export class ImageNodeView implements NodeView {
  readonly dom: HTMLElement;
  private readonly frame: HTMLElement;
  private readonly img: HTMLImageElement;
  private readonly caption: HTMLElement;
  private readonly button: HTMLButtonElement;
  private readonly handles: Record<Side, HTMLElement>;
  /** The width shown while a handle is dragged (the node keeps its own until the drag ends). */
  private dragging: {
    side: Side;
    startX: number;
    startWidth: number;
    columnWidth: number;
    percent: number;
  } | null = null;
  private node: PmNode;
  private unsubscribe: (() => void) | undefined;
  private documentId: string | undefined;

  constructor(
    node: PmNode,
    private readonly tokens: ImageAccessTokens,
    private readonly options: {
      editable: () => boolean;
      onEdit: (view: ImageNodeView) => void;
      onResize: (width: ImageWidth) => void;
    },
  ) {
    this.node = node;
    this.dom = document.createElement('figure');
    this.dom.className = 'qw-image group relative my-4 flex';
    this.dom.setAttribute('data-type', 'image');
    // The frame takes the image's width and alignment, for the picture and its caption.
    this.frame = document.createElement('div');
    this.frame.className = 'qw-image-frame relative max-w-full';
    this.img = document.createElement('img');
    this.img.draggable = false;
    this.img.className = 'block h-auto w-full rounded-md';
    this.button = document.createElement('button');
    this.button.type = 'button';
    this.button.className =
      'absolute top-2 rounded-md border bg-background/90 px-2 py-0.5 text-xs font-medium shadow-xs hover:bg-accent';
    this.button.addEventListener('mousedown', (event) => event.preventDefault());
    this.button.addEventListener('click', (event) => {
      event.preventDefault();
      this.options.onEdit(this);
    });
    this.caption = document.createElement('figcaption');
    this.caption.className = 'mt-2 text-sm text-muted-foreground';
    this.handles = { left: this.makeHandle('left'), right: this.makeHandle('right') };
    // The picture's own box: the button and the handles sit on the picture, not on its caption.
    const picture = document.createElement('div');
    picture.className = 'relative';
    picture.append(this.img, this.button, this.handles.left, this.handles.right);
    this.frame.append(picture, this.caption);
    this.dom.append(this.frame);
    this.render();
  }

  private makeHandle(side: Side): HTMLElement {
    const handle = document.createElement('div');
    handle.className = `${HANDLE_CLASS} ${side === 'left' ? '-left-1.5' : '-right-1.5'}`;
    handle.setAttribute('role', 'slider');
    handle.setAttribute('aria-label', 'Image width');
    handle.setAttribute('aria-orientation', 'horizontal');
    handle.setAttribute('aria-valuemin', String(IMAGE_WIDTHS[0]));
    handle.setAttribute('aria-valuemax', String(IMAGE_WIDTHS[IMAGE_WIDTHS.length - 1]));
    handle.dataset.side = side;
    handle.tabIndex = 0;
    handle.addEventListener('pointerdown', (event) => this.startDrag(event, side));
    handle.addEventListener('pointermove', (event) => this.moveDrag(event));
    handle.addEventListener('pointerup', (event) => this.endDrag(event, true));
    handle.addEventListener('pointercancel', (event) => this.endDrag(event, false));
    handle.addEventListener('keydown', (event) => this.resizeByKey(event, side));
    return handle;
  }

  private get width(): number {
    return typeof this.node.attrs.width === 'number' ? this.node.attrs.width : 100;
  }

  private startDrag(event: PointerEvent, side: Side): void {
    if (!this.options.editable() || event.button !== 0) return;
    event.preventDefault();
    const handle = this.handles[side];
    handle.setPointerCapture(event.pointerId);
    this.dragging = {
      side,
      startX: event.clientX,
      startWidth: this.frame.getBoundingClientRect().width,
      columnWidth: this.dom.getBoundingClientRect().width || 1,
      percent: this.width,
    };
    this.dom.setAttribute('data-resizing', '');
  }

  private moveDrag(event: PointerEvent): void {
    const drag = this.dragging;
    if (!drag) return;
    // A centred image grows on both sides, so the pointer moves half as far as the width grows.
    const growth = (drag.side === 'right' ? 1 : -1) * (event.clientX - drag.startX);
    const factor = this.node.attrs.align === 'center' ? 2 : 1;
    const pixels = drag.startWidth + growth * factor;
    drag.percent = Math.min(100, Math.max(10, (pixels / drag.columnWidth) * 100));
    this.frame.style.width = `${drag.percent}%`;
    this.showWidth(snapImageWidth(drag.percent));
  }

  private endDrag(event: PointerEvent, apply: boolean): void {
    const drag = this.dragging;
    if (!drag) return;
    this.dragging = null;
    this.handles[drag.side].releasePointerCapture(event.pointerId);
    this.dom.removeAttribute('data-resizing');
    const width = snapImageWidth(drag.percent);
    if (apply && width !== this.width) this.options.onResize(width);
    else this.render();
  }

  private resizeByKey(event: KeyboardEvent, side: Side): void {
    if (!this.options.editable()) return;
    // The right handle grows to the right, the left one to the left: the arrow pointing away grows.
    const grow = side === 'right' ? 'ArrowRight' : 'ArrowLeft';
    const shrink = side === 'right' ? 'ArrowLeft' : 'ArrowRight';
    let width: ImageWidth | undefined;
    if (event.key === grow || event.key === 'ArrowUp') width = stepWidth(this.width, 1);
    else if (event.key === shrink || event.key === 'ArrowDown') width = stepWidth(this.width, -1);
    else if (event.key === 'Home') width = IMAGE_WIDTHS[0];
    else if (event.key === 'End') width = IMAGE_WIDTHS[IMAGE_WIDTHS.length - 1];
    if (width === undefined) return;
    event.preventDefault();
    if (width !== this.width) this.options.onResize(width);
  }

  private showWidth(percent: number): void {
    for (const handle of Object.values(this.handles)) {
      handle.setAttribute('aria-valuenow', String(percent));
      handle.setAttribute('aria-valuetext', `${percent}% of the text column`);
    }
  }

  get currentNode(): PmNode {
    return this.node;
  }

  update(node: PmNode): boolean {
    if (node.type !== this.node.type) return false;
    this.node = node;
    this.render();
    return true;
  }

  private render(): void {
    const { src, alt, title, width, align } = this.node.attrs as Record<string, unknown>;
    const source = typeof src === 'string' ? src : '';
    const documentId = parseImageSrc(source)?.documentId;
    if (documentId !== this.documentId) {
      this.unsubscribe?.();
      this.documentId = documentId;
      this.unsubscribe = documentId ? this.tokens.subscribe(documentId, () => this.showSource()) : undefined;
    }
    this.showSource();
    const altText = typeof alt === 'string' ? alt : '';
    this.img.alt = altText;
    // The title is the caption: shown under the image rather than as a tooltip.
    const caption = typeof title === 'string' ? title.trim() : '';
    this.caption.textContent = caption;
    this.caption.hidden = caption === '';
    this.caption.style.textAlign = align === 'left' || align === 'right' ? align : 'center';
    const percent = typeof width === 'number' ? width : 100;
    if (!this.dragging) this.frame.style.width = `${percent}%`;
    this.frame.classList.remove(...Object.values(ALIGN_CLASSES));
    this.frame.classList.add(ALIGN_CLASSES[typeof align === 'string' ? align : 'center'] ?? 'mx-auto');
    this.showWidth(percent);
    for (const handle of Object.values(this.handles)) handle.hidden = !this.options.editable();
    this.dom.setAttribute('data-width', String(percent));
    this.dom.setAttribute('data-align', typeof align === 'string' ? align : 'center');
    const missingAlt = altText.trim() === '';
    this.button.textContent = missingAlt ? '⚠ Add alt text' : 'Alt';
    this.button.setAttribute('aria-label', missingAlt ? 'Add alt text (this image has none)' : 'Edit image');
    this.button.title = missingAlt ? 'This image has no alt text' : `Alt text: ${altText}`;
    this.button.classList.toggle('text-amber-700', missingAlt);
    this.button.classList.toggle('dark:text-amber-400', missingAlt);
    this.button.hidden = !this.options.editable() && !missingAlt;
    this.button.disabled = !this.options.editable();
    this.button.style.right = '0.5rem';
  }

  private showSource(): void {
    const src = this.node.attrs.src as string;
    const display = this.documentId ? this.tokens.displaySrc(this.documentId, src) : null;
    if (display && this.img.getAttribute('src') !== display) this.img.src = display;
  }

  stopEvent(event: Event): boolean {
    const target = event.target as Node | null;
    return target === this.button || target === this.handles.left || target === this.handles.right;
  }

  ignoreMutation(): boolean {
    return true;
  }

  destroy(): void {
    this.unsubscribe?.();
  }
}
