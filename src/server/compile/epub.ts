import { strToU8, zipSync, type Zippable } from 'fflate';
import { sanitizeHref, type RichTextMark, type RichTextNode } from '../../shared/schemas/richText';
import type { BookImage } from './assets';
import { SCENE_BREAK_TEXT, noteNumbers, type Book, type Chapter } from './book';
import { xmlText } from './xml';

/**
 * EPUB 3: `mimetype` first and stored, the container, an OPF package, a navigation document, a generated
 * SVG cover, one XHTML file per chapter (and for the title, copyright and contents pages), one stylesheet
 * and the book's images. Every file is written here as text, every piece of user text through xmlText, so
 * the result is well-formed whatever the writer typed. EPUBCheck passes it without errors or warnings.
 */

const XHTML_NS = 'http://www.w3.org/1999/xhtml';
const EPUB_NS = 'http://www.idpf.org/2007/ops';

const CSS = `@charset "UTF-8";
body { font-family: serif; line-height: 1.5; margin: 0 5%; }
h1 { font-size: 1.6em; text-align: center; margin: 3em 0 1.5em; font-weight: normal; }
h1 .label { display: block; font-size: 0.7em; letter-spacing: 0.1em; text-transform: uppercase; margin-bottom: 0.6em; }
h2 { font-size: 1.25em; margin: 1.5em 0 0.5em; }
h3 { font-size: 1.1em; margin: 1.2em 0 0.4em; }
p { margin: 0; text-indent: 1.5em; text-align: justify; }
h1 + p, h2 + p, h3 + p, p.scene-break + p, figure + p, blockquote + p, p.first { text-indent: 0; }
p.scene-break { text-indent: 0; text-align: center; margin: 1em 0; }
blockquote { margin: 1em 2em; font-style: italic; }
blockquote p { text-indent: 0; }
pre { font-family: monospace; font-size: 0.85em; white-space: pre-wrap; margin: 1em 0; }
figure { margin: 1em 0; text-align: center; }
figure img { max-width: 100%; height: auto; }
table { border-collapse: collapse; margin: 1em auto; }
td, th { border: 1px solid #999; padding: 0.2em 0.4em; vertical-align: top; }
td p, th p, li p { text-indent: 0; }
ul.tasks { list-style: none; }
.u { text-decoration: underline; }
.center { text-align: center; text-indent: 0; }
.right { text-align: right; text-indent: 0; }
.left { text-align: left; }
section.title-page { text-align: center; margin-top: 30%; }
section.title-page h1 { font-size: 2em; margin: 0 0 1em; }
section.title-page p { text-indent: 0; text-align: center; font-size: 1.2em; }
section.copyright-page { margin-top: 60%; }
section.copyright-page p { text-indent: 0; font-size: 0.85em; text-align: left; }
nav#toc ol { list-style: none; padding: 0; }
nav#toc li { margin: 0.4em 0; }
a.noteref { text-decoration: none; }
section.notes { margin-top: 2em; font-size: 0.85em; }
section.notes h2 { font-size: 1.1em; }
aside.footnote p { text-indent: 0; margin: 0 0 0.4em; }
`;

function page(language: string, title: string, body: string, bodyType = ''): string {
  const lang = xmlText(language);
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="${XHTML_NS}" xmlns:epub="${EPUB_NS}" xml:lang="${lang}" lang="${lang}">
<head>
<meta charset="UTF-8"/>
<title>${xmlText(title)}</title>
<link rel="stylesheet" type="text/css" href="book.css"/>
</head>
<body${bodyType ? ` epub:type="${bodyType}"` : ''}>
${body}
</body>
</html>
`;
}

const ALIGN_CLASSES: Record<string, string> = { center: 'center', right: 'right', justify: '' };

function alignClass(node: RichTextNode): string {
  const align = typeof node.attrs?.textAlign === 'string' ? node.attrs.textAlign : '';
  const name = ALIGN_CLASSES[align];
  return name ? ` class="${name}"` : '';
}

const MARK_TAGS: Record<string, [string, string]> = {
  bold: ['<strong>', '</strong>'],
  italic: ['<em>', '</em>'],
  underline: ['<span class="u">', '</span>'],
  strike: ['<s>', '</s>'],
  code: ['<code>', '</code>'],
  subscript: ['<sub>', '</sub>'],
  superscript: ['<sup>', '</sup>'],
  highlight: ['<mark>', '</mark>'],
};

function linkOf(marks: RichTextMark[] | undefined): string {
  const link = marks?.find((mark) => mark.type === 'link');
  const href = typeof link?.attrs?.href === 'string' ? sanitizeHref(link.attrs.href) : '';
  // Only absolute addresses: a relative one would point inside the EPUB, where nothing answers it.
  return /^(https?:|mailto:)/i.test(href) ? href : '';
}

interface RenderContext {
  images: Map<string, BookImage>;
  sceneBreak: string;
  /** The chapter's note numbers by reference id. */
  notes: Map<string, number>;
}

function inline(nodes: RichTextNode[] | undefined, ctx: RenderContext): string {
  let out = '';
  for (const node of nodes ?? []) {
    if (node.type === 'hardBreak') {
      out += '<br/>';
      continue;
    }
    if (node.type === 'footnoteReference') {
      const number = ctx.notes.get(String(node.attrs?.id));
      if (number !== undefined)
        out += `<sup><a class="noteref" epub:type="noteref" href="#fn-${number}" id="fnref-${number}">${number}</a></sup>`;
      continue;
    }
    if (node.type !== 'text') continue;
    let text = xmlText(node.text ?? '');
    for (const mark of node.marks ?? []) {
      const tags = MARK_TAGS[mark.type];
      if (tags) text = tags[0] + text + tags[1];
    }
    const href = linkOf(node.marks);
    out += href ? `<a href="${xmlText(href)}">${text}</a>` : text;
  }
  return out;
}

function blocks(nodes: RichTextNode[] | undefined, ctx: RenderContext): string {
  return (nodes ?? []).map((node) => block(node, ctx)).join('\n');
}

function cell(node: RichTextNode, ctx: RenderContext): string {
  const tag = node.type === 'tableHeader' ? 'th' : 'td';
  const colspan = Number(node.attrs?.colspan) > 1 ? ` colspan="${Number(node.attrs?.colspan)}"` : '';
  const rowspan = Number(node.attrs?.rowspan) > 1 ? ` rowspan="${Number(node.attrs?.rowspan)}"` : '';
  return `<${tag}${colspan}${rowspan}>${blocks(node.content, ctx)}</${tag}>`;
}

function block(node: RichTextNode, ctx: RenderContext): string {
  switch (node.type) {
    case 'paragraph':
      return `<p${alignClass(node)}>${inline(node.content, ctx)}</p>`;
    case 'heading': {
      const level = Math.min(3, Math.max(2, Number(node.attrs?.level) || 2));
      return `<h${level}${alignClass(node)}>${inline(node.content, ctx)}</h${level}>`;
    }
    case 'blockquote':
      return `<blockquote>${blocks(node.content, ctx)}</blockquote>`;
    case 'codeBlock':
      return `<pre>${xmlText((node.content ?? []).map((text) => text.text ?? '').join(''))}</pre>`;
    case 'horizontalRule':
      return `<p class="scene-break">${xmlText(ctx.sceneBreak)}</p>`;
    case 'image': {
      const image = typeof node.attrs?.src === 'string' ? ctx.images.get(node.attrs.src) : undefined;
      const alt = typeof node.attrs?.alt === 'string' ? node.attrs.alt : '';
      if (!image) return alt ? `<p class="center">[${xmlText(alt)}]</p>` : '';
      const width = Number(node.attrs?.width);
      const style = width > 0 && width < 100 ? ` style="width: ${width}%"` : '';
      return `<figure><img src="images/${image.name}" alt="${xmlText(alt)}"${style}/></figure>`;
    }
    case 'bulletList':
      return `<ul>${listItems(node, ctx)}</ul>`;
    case 'orderedList': {
      const start = Number(node.attrs?.start) > 1 ? ` start="${Number(node.attrs?.start)}"` : '';
      return `<ol${start}>${listItems(node, ctx)}</ol>`;
    }
    case 'taskList':
      return `<ul class="tasks">${(node.content ?? [])
        .map((item) => {
          const box = item.attrs?.checked === true ? '☒' : '☐';
          const [first, ...rest] = item.content ?? [];
          const head = first ? `<p>${box} ${inline(first.content, ctx)}</p>` : `<p>${box}</p>`;
          return `<li>${head}${blocks(rest, ctx)}</li>`;
        })
        .join('')}</ul>`;
    case 'table':
      return `<table><tbody>${(node.content ?? [])
        .map((row) => `<tr>${(row.content ?? []).map((c) => cell(c, ctx)).join('')}</tr>`)
        .join('')}</tbody></table>`;
    default:
      return '';
  }
}

function listItems(node: RichTextNode, ctx: RenderContext): string {
  return (node.content ?? []).map((item) => `<li>${blocks(item.content, ctx)}</li>`).join('');
}

/**
 * The chapter's notes at the end of its file: EPUB 3 footnotes (`aside epub:type="footnote"`), which readers
 * that pop notes up show at the reference and others show here, each opening with its number as the link back.
 */
function chapterNotes(chapter: Chapter, ctx: RenderContext): string {
  if (chapter.notes.length === 0) return '';
  const asides = chapter.notes.map((note) => {
    const back = `<a href="#fnref-${note.number}" role="doc-backlink">${note.number}.</a>`;
    const [first, ...rest] = note.blocks;
    const opening = `<p>${back} ${first ? inline(first.content, ctx) : ''}</p>`;
    return `<aside class="footnote" epub:type="footnote" id="fn-${note.number}">${opening}${blocks(rest, ctx)}</aside>`;
  });
  return `\n<section class="notes" epub:type="footnotes"><h2>Notes</h2>\n${asides.join('\n')}\n</section>`;
}

function chapterHeading(chapter: Chapter): string {
  const label = chapter.label ? `<span class="label">${xmlText(chapter.label)}</span>` : '';
  return `<h1>${label}${xmlText(chapter.title)}</h1>`;
}

function chapterTitleLine(chapter: Chapter): string {
  return chapter.label ? `${chapter.label}: ${chapter.title}` : chapter.title;
}

const CHAPTER_TYPES = { front: 'frontmatter', chapter: 'bodymatter', back: 'backmatter' } as const;

/** The generated cover: the title and author set on a plain page, as SVG (a core EPUB media type). */
function coverSvg(book: Book): string {
  const words = book.meta.title.split(/\s+/);
  const lines: string[] = [];
  for (const word of words) {
    const last = lines.at(-1);
    if (last !== undefined && (last + ' ' + word).length <= 18) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  const shown = lines.slice(0, 6);
  const titleText = shown
    .map((line, i) => `<text x="300" y="${300 + i * 64}" class="t">${xmlText(line)}</text>`)
    .join('');
  const author = book.meta.author
    ? `<text x="300" y="720" class="a">${xmlText(book.meta.author)}</text>`
    : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" version="1.1" viewBox="0 0 600 900" width="600" height="900">
<title>${xmlText(book.meta.title)}</title>
<style>.t{font:48px serif;fill:#1c1917;text-anchor:middle}.a{font:28px serif;fill:#44403c;text-anchor:middle}</style>
<rect width="600" height="900" fill="#f5f1e8"/>
<rect x="40" y="40" width="520" height="820" fill="none" stroke="#78716c" stroke-width="2"/>
${titleText}${author}
</svg>
`;
}

/** `dcterms:modified` wants seconds precision and a Z. */
function modified(now: Date): string {
  return now.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function renderEpub(book: Book, images: BookImage[], now = new Date()): Uint8Array {
  const { meta, options } = book;
  const lang = meta.language;
  const ctx: RenderContext = {
    images: new Map(images.map((image) => [image.src, image])),
    sceneBreak: SCENE_BREAK_TEXT[options.sceneBreak],
    notes: new Map(),
  };
  const files: Zippable = {};
  const text = (path: string, content: string) => {
    files[path] = strToU8(content);
  };
  // The first entry, stored: readers find the type at a fixed offset.
  files.mimetype = [strToU8('application/epub+zip'), { level: 0 }];
  text(
    'META-INF/container.xml',
    `<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>
`,
  );
  const manifest: string[] = [
    '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>',
    '<item id="css" href="book.css" media-type="text/css"/>',
    '<item id="cover-image" href="cover.svg" media-type="image/svg+xml" properties="cover-image"/>',
    '<item id="cover" href="cover.xhtml" media-type="application/xhtml+xml" properties="svg"/>',
  ];
  const spine: string[] = ['<itemref idref="cover" linear="yes"/>'];
  text('OEBPS/book.css', CSS);
  text('OEBPS/cover.svg', coverSvg(book));
  text(
    'OEBPS/cover.xhtml',
    page(
      lang,
      meta.title,
      `<section epub:type="cover"><svg xmlns="http://www.w3.org/2000/svg" version="1.1" viewBox="0 0 600 900" width="100%" height="100%"><image width="600" height="900" xlink:href="cover.svg" xmlns:xlink="http://www.w3.org/1999/xlink"/></svg></section>`,
    ),
  );
  if (options.titlePage) {
    const author = meta.author ? `<p>${xmlText(meta.author)}</p>` : '';
    text(
      'OEBPS/title.xhtml',
      page(
        lang,
        meta.title,
        `<section class="title-page" epub:type="titlepage"><h1>${xmlText(meta.title)}</h1>${author}</section>`,
        'frontmatter',
      ),
    );
    manifest.push('<item id="title-page" href="title.xhtml" media-type="application/xhtml+xml"/>');
    spine.push('<itemref idref="title-page"/>');
  }
  if (options.copyrightPage) {
    const line = meta.copyright || (meta.author ? `Copyright © ${now.getUTCFullYear()} ${meta.author}` : '');
    const lines = [line, 'All rights reserved.'].filter(Boolean);
    text(
      'OEBPS/copyright.xhtml',
      page(
        lang,
        'Copyright',
        `<section class="copyright-page" epub:type="copyright-page">${lines.map((l) => `<p>${xmlText(l)}</p>`).join('')}</section>`,
        'frontmatter',
      ),
    );
    manifest.push('<item id="copyright" href="copyright.xhtml" media-type="application/xhtml+xml"/>');
    spine.push('<itemref idref="copyright"/>');
  }
  // The navigation document is always there (readers' own contents menu); in the reading order only when asked.
  if (options.tableOfContents) spine.push('<itemref idref="nav"/>');
  const navItems: string[] = [];
  book.chapters.forEach((chapter, index) => {
    const id = `chapter-${String(index + 1).padStart(3, '0')}`;
    const href = `${id}.xhtml`;
    ctx.notes = noteNumbers(chapter);
    text(
      `OEBPS/${href}`,
      page(
        lang,
        chapterTitleLine(chapter),
        `<section epub:type="${chapter.role === 'chapter' ? 'chapter' : 'division'}">\n${chapterHeading(chapter)}\n${blocks(chapter.blocks, ctx)}${chapterNotes(chapter, ctx)}\n</section>`,
        CHAPTER_TYPES[chapter.role],
      ),
    );
    manifest.push(`<item id="${id}" href="${href}" media-type="application/xhtml+xml"/>`);
    spine.push(`<itemref idref="${id}"/>`);
    navItems.push(`<li><a href="${href}">${xmlText(chapterTitleLine(chapter))}</a></li>`);
  });
  for (const image of images) {
    files[`OEBPS/images/${image.name}`] = [image.bytes, { level: 0 }];
    manifest.push(
      `<item id="img-${image.name.replace(/\.\w+$/, '')}" href="images/${image.name}" media-type="${image.mime}"/>`,
    );
  }
  const firstChapter = book.chapters.length > 0 ? 'chapter-001.xhtml' : 'cover.xhtml';
  text(
    'OEBPS/nav.xhtml',
    page(
      lang,
      'Contents',
      `<nav epub:type="toc" id="toc"><h1>Contents</h1><ol>${navItems.join('') || `<li><a href="cover.xhtml">${xmlText(meta.title)}</a></li>`}</ol></nav>
<nav epub:type="landmarks" hidden="hidden"><h2>Guide</h2><ol><li><a epub:type="cover" href="cover.xhtml">Cover</a></li><li><a epub:type="bodymatter" href="${firstChapter}">Start</a></li></ol></nav>`,
    ),
  );
  const creator = meta.author ? `<dc:creator id="creator">${xmlText(meta.author)}</dc:creator>\n` : '';
  const rights = meta.copyright ? `<dc:rights>${xmlText(meta.copyright)}</dc:rights>\n` : '';
  text(
    'OEBPS/content.opf',
    `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="book-id" xml:lang="${xmlText(lang)}">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
<dc:identifier id="book-id">${xmlText(meta.identifier)}</dc:identifier>
<dc:title>${xmlText(meta.title)}</dc:title>
${creator}<dc:language>${xmlText(lang)}</dc:language>
${rights}<meta property="dcterms:modified">${modified(now)}</meta>
<meta name="cover" content="cover-image"/>
</metadata>
<manifest>
${manifest.join('\n')}
</manifest>
<spine>
${spine.join('\n')}
</spine>
</package>
`,
  );
  return zipSync(files, { level: 6, mtime: now });
}
