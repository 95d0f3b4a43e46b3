import type { BookFormat, BookOptions } from '../../shared/schemas/compile';
import type { BookImage } from './assets';
import { assembleBook, type BookSource } from './book';

/** One compile, as the worker receives it. */
export interface CompileJob {
  format: BookFormat;
  source: BookSource;
  options: BookOptions;
  /** The account's name: the author when the options give none. */
  author: string;
  images: BookImage[];
  now: number;
}

/** Assembles the book and renders it; the renderers are loaded only for the format asked. */
export async function renderBook(job: CompileJob): Promise<Uint8Array> {
  const book = assembleBook(job.source, job.options, job.author);
  const now = new Date(job.now);
  switch (job.format) {
    case 'epub': {
      const { renderEpub } = await import('./epub');
      return renderEpub(book, job.images, now);
    }
    case 'pdf': {
      const { renderPdf } = await import('./pdf');
      return renderPdf(book, job.images, now);
    }
    case 'docx': {
      const { renderDocx } = await import('./docx');
      return renderDocx(book, job.images, now);
    }
  }
}
