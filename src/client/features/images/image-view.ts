import type { Node as PmNode } from '@tiptap/pm/model';
import type { NodeView } from '@tiptap/pm/view';
import { parseImageSrc } from '@shared/editor/image-src';
import type { ImageAccessTokens } from './access';

const ALIGN_CLASSES: Record<string, string> = { left: 'mr-auto', center: 'mx-auto', right: 'ml-auto' };

/**
 * An image in the editor: the <img> with the access token added to its address (never stored), the alt text
 * as its alt, and a button that opens the image's settings. An image without alt text shows a small warning
 * on that button, so it is noticed without getting in the way.
 */
export class ImageNodeView implements NodeView {
  readonly dom: HTMLElement;
  private readonly img: HTMLImageElement;
  private readonly button: HTMLButtonElement;
  private node: PmNode;
  private unsubscribe: (() => void) | undefined;
  private documentId: string | undefined;

  constructor(
    node: PmNode,
    private readonly tokens: ImageAccessTokens,
    private readonly options: { editable: () => boolean; onEdit: (view: ImageNodeView) => void },
  ) {
    this.node = node;
    this.dom = document.createElement('figure');
    this.dom.className = 'qw-image group relative my-4 flex';
    this.dom.setAttribute('data-type', 'image');
    this.img = document.createElement('img');
    this.img.draggable = false;
    this.img.className = 'block h-auto max-w-full rounded-md';
    this.button = document.createElement('button');
    this.button.type = 'button';
    this.button.className =
      'absolute top-2 rounded-md border bg-background/90 px-2 py-0.5 text-xs font-medium shadow-xs hover:bg-accent';
    this.button.addEventListener('mousedown', (event) => event.preventDefault());
    this.button.addEventListener('click', (event) => {
      event.preventDefault();
      this.options.onEdit(this);
    });
    this.dom.append(this.img, this.button);
    this.render();
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
    if (typeof title === 'string' && title) this.img.title = title;
    else this.img.removeAttribute('title');
    const percent = typeof width === 'number' ? width : 100;
    this.img.style.width = `${percent}%`;
    this.img.classList.remove(...Object.values(ALIGN_CLASSES));
    this.img.classList.add(ALIGN_CLASSES[typeof align === 'string' ? align : 'center'] ?? 'mx-auto');
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
    // Where the image sits decides where the button goes: over its top right corner.
    this.button.style.right = align === 'left' ? `calc(${100 - percent}% + 0.5rem)` : '0.5rem';
    if (align === 'center') this.button.style.right = `calc(${(100 - percent) / 2}% + 0.5rem)`;
  }

  private showSource(): void {
    const src = this.node.attrs.src as string;
    const display = this.documentId ? this.tokens.displaySrc(this.documentId, src) : null;
    if (display && this.img.getAttribute('src') !== display) this.img.src = display;
  }

  stopEvent(event: Event): boolean {
    return event.target === this.button;
  }

  ignoreMutation(): boolean {
    return true;
  }

  destroy(): void {
    this.unsubscribe?.();
  }
}
