import { Node } from '@tiptap/core';
import { IMAGE_ALIGNMENTS, IMAGE_WIDTHS } from '../constants';
import { isImageSrc } from './image-src';

export type ImageWidth = (typeof IMAGE_WIDTHS)[number];
export type ImageAlignment = (typeof IMAGE_ALIGNMENTS)[number];

interface ImageAttributes {
  src: string;
  alt?: string | null;
  title?: string | null;
  width?: ImageWidth;
  align?: ImageAlignment;
}

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    image: {
      /** Inserts an uploaded image at the selection (a block of its own). */
      insertImage: (attributes: ImageAttributes) => ReturnType;
      /** Changes the selected image's alt text, caption, width or alignment. */
      updateImage: (attributes: Partial<ImageAttributes>) => ReturnType;
    };
  }
}

/** The width in the list closest to `value` (the editor and the validator snap to the same steps). */
export function snapImageWidth(value: number): ImageWidth {
  let best: ImageWidth = IMAGE_WIDTHS[IMAGE_WIDTHS.length - 1]!;
  for (const width of IMAGE_WIDTHS) if (Math.abs(width - value) < Math.abs(best - value)) best = width;
  return best;
}

/** The <img> of a parsed element: itself, or the one inside a captioned image's <figure>. */
function imageElementOf(element: HTMLElement): HTMLElement {
  return element.tagName === 'FIGURE' ? (element.querySelector('img') ?? element) : element;
}

/**
 * An image uploaded to this server: a block of its own, its `src` always this server's image address
 * (image-src.ts), its width a share of the text column (IMAGE_WIDTHS) and its alignment one of three. The
 * alt text is what exports without pictures, screen readers and the AI read instead of the image; the title
 * is its visible caption. Renders one <img>, in a <figure> with a <figcaption> when it has a caption; the
 * editor shows it through its own view (the access token is added there, never stored).
 */
export const ImageNode = Node.create({
  name: 'image',
  group: 'block',
  atom: true,
  draggable: true,
  selectable: true,

  addAttributes() {
    return {
      src: {
        default: null,
        parseHTML: (element: HTMLElement) => imageElementOf(element).getAttribute('src'),
        renderHTML: (attributes: Record<string, unknown>) => ({ src: attributes.src }),
      },
      alt: {
        default: null,
        parseHTML: (element: HTMLElement) => imageElementOf(element).getAttribute('alt') || null,
        renderHTML: (attributes: Record<string, unknown>) => ({ alt: attributes.alt ?? '' }),
      },
      title: {
        default: null,
        parseHTML: (element: HTMLElement) =>
          imageElementOf(element).getAttribute('title') ||
          element.querySelector('figcaption')?.textContent?.trim() ||
          null,
        renderHTML: (attributes: Record<string, unknown>) =>
          attributes.title ? { title: attributes.title } : {},
      },
      width: {
        default: 100,
        parseHTML: (element: HTMLElement) =>
          snapImageWidth(Number(imageElementOf(element).getAttribute('data-width')) || 100),
        renderHTML: (attributes: Record<string, unknown>) => ({
          'data-width': String(attributes.width ?? 100),
        }),
      },
      align: {
        default: 'center',
        parseHTML: (element: HTMLElement) => {
          const value = imageElementOf(element).getAttribute('data-align');
          return (IMAGE_ALIGNMENTS as readonly (string | null)[]).includes(value) ? value : 'center';
        },
        renderHTML: (attributes: Record<string, unknown>) => ({
          'data-align': String(attributes.align ?? 'center'),
        }),
      },
    };
  },

  parseHTML() {
    // Images from elsewhere (pasted web pages, imports) are not taken: only this server's uploads.
    return [
      {
        tag: 'figure',
        getAttrs: (element) => (isImageSrc(element.querySelector('img')?.getAttribute('src')) ? null : false),
      },
      { tag: 'img[src]', getAttrs: (element) => (isImageSrc(element.getAttribute('src')) ? null : false) },
    ];
  },

  renderHTML({ node, HTMLAttributes }) {
    const caption = typeof node.attrs.title === 'string' ? node.attrs.title.trim() : '';
    return caption ? ['figure', ['img', HTMLAttributes], ['figcaption', caption]] : ['img', HTMLAttributes];
  },

  addCommands() {
    return {
      insertImage:
        (attributes) =>
        ({ commands }) =>
          commands.insertContent({ type: this.name, attrs: attributes }),
      updateImage:
        (attributes) =>
        ({ commands }) =>
          commands.updateAttributes(this.name, attributes),
    };
  },
});
