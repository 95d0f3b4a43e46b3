import { CHAT_OMITTED } from '../../shared/ai/prompts';
import { footnoteNumbersOf } from '../../shared/editor/footnotes';
import { imageAsText } from '../../shared/editor/image-text';
import { hasHeaderRow, tableGrid } from '../../shared/editor/table-grid';
import type { RichTextNode } from '../../shared/schemas/richText';

/**
 * What the model sees of a document: its title, then one numbered line per block ("[3] ## Heading",
 * "[4] - a list item", "[5] - [x] a done task"; a table is one block of GFM rows; a footnote is "[^1]" in the text and
 * its note a block "[^1]: the note", as in GFM), trimmed to a character budget around the parts that matter to the question.
 */

interface JsonNode {
  type?: string;
  text?: string;
  attrs?: Record<string, unknown>;
  content?: JsonNode[];
}

/** The text blocks of a rich-text tree, in order, with a light Markdown prefix for their kind. */
export function documentBlocks(content: unknown): string[] {
  const blocks: string[] = [];
  const numbers = footnoteNumbersOf((content ?? {}) as { content?: RichTextNode[] });
  const label = (node: JsonNode) => `[^${numbers.get(String(node.attrs?.id)) ?? '?'}]`;
  const inline = (node: JsonNode): string => {
    if (node.type === 'text') return node.text ?? '';
    if (node.type === 'hardBreak') return ' ';
    if (node.type === 'footnoteReference') return label(node);
    return (node.content ?? []).map(inline).join('');
  };
  const walk = (node: JsonNode, prefix: string) => {
    switch (node.type) {
      case 'heading': {
        const level = Number(node.attrs?.level) || 1;
        blocks.push(`${'#'.repeat(Math.min(Math.max(level, 1), 6))} ${inline(node)}`);
        return;
      }
      case 'paragraph':
      case 'codeBlock':
        if (inline(node).trim()) blocks.push(`${prefix}${inline(node)}`);
        return;
      case 'horizontalRule':
        return;
      case 'image':
        // The AI reads an image as the plain-text export gives it: alt text, then the caption.
        blocks.push(`${prefix}${imageAsText(node.attrs)}`);
        return;
      case 'bulletList':
      case 'orderedList':
        for (const item of node.content ?? []) walk(item, '- ');
        return;
      case 'taskList':
        for (const item of node.content ?? []) walk(item, item.attrs?.checked === true ? '- [x] ' : '- [ ] ');
        return;
      case 'table':
        blocks.push(tableText(node));
        return;
      case 'blockquote':
        for (const child of node.content ?? []) walk(child, '> ');
        return;
      case 'footnote':
        blocks.push(`${label(node)}: ${(node.content ?? []).map(inline).join(' ')}`);
        return;
      default:
        // listItem and any container: its children, the first one carrying the prefix.
        (node.content ?? []).forEach((child, i) => walk(child, i === 0 ? prefix : ''));
    }
  };
  // A merged cell's text sits in its first column; the columns it covers are empty, as in GFM.
  const tableText = (table: JsonNode): string => {
    const cellText = (cell: RichTextNode | null) =>
      (cell?.content ?? []).map((block) => inline(block).replace(/\|/g, '\\|')).join(' ');
    const rows = tableGrid(table as RichTextNode).map((row) => `| ${row.map(cellText).join(' | ')} |`);
    if (hasHeaderRow(table as RichTextNode) && rows.length > 0) {
      const columns = (rows[0]!.match(/ \| /g)?.length ?? 0) + 1;
      rows.splice(1, 0, `|${' --- |'.repeat(columns)}`);
    }
    return rows.join('\n');
  };
  const root = content as JsonNode | null;
  for (const node of root?.content ?? []) walk(node, '');
  return blocks;
}

const WORD = /[\p{L}\p{N}]{3,}/gu;
const STOP_WORDS = new Set(
  'the and for are but not you all any can had her was one our out has him his how its may new now see two who did get let say she too use that this with from they will what when your have more make like into than them then were which their there about would these other could every'.split(
    ' ',
  ),
);

function wordsOf(text: string): Set<string> {
  const words = new Set<string>();
  for (const match of text.toLowerCase().matchAll(WORD)) if (!STOP_WORDS.has(match[0])) words.add(match[0]);
  return words;
}

/**
 * The document as the model sees it, at most about `budget` characters. When everything fits, everything
 * is sent. Otherwise blocks are ranked by how many of the question's words they share (ties: earlier
 * first), and the best ones join together with their neighbours until the budget is spent; the first block
 * (usually the introduction) comes first when nothing matches. Left-out runs show as "[…]".
 */
export function documentForPrompt(title: string, blocks: string[], question: string, budget: number): string {
  const lines = blocks.map((block, i) => `[${i + 1}] ${block}`);
  const header = `Title: ${title.trim() || 'Untitled'}`;
  const total = lines.reduce((sum, line) => sum + line.length + 1, header.length + 1);
  if (total <= budget) return [header, ...lines].join('\n');

  const asked = wordsOf(question);
  const scores = blocks.map((block) => {
    let score = 0;
    for (const word of wordsOf(block)) if (asked.has(word)) score += 1;
    return score;
  });
  const order = blocks.map((_, i) => i).sort((a, b) => scores[b]! - scores[a]! || a - b);
  const kept = new Set<number>();
  let used = header.length + 1;
  const keep = (i: number): boolean => {
    if (i < 0 || i >= lines.length || kept.has(i)) return true;
    // A single block longer than the budget is cut rather than left out.
    const line =
      lines[i]!.length > budget / 2 ? `${lines[i]!.slice(0, budget / 2)} ${CHAT_OMITTED}` : lines[i]!;
    if (used + line.length + 1 > budget) return false;
    lines[i] = line;
    kept.add(i);
    used += line.length + 1;
    return true;
  };
  for (const i of order) {
    if (!keep(i)) break;
    keep(i - 1);
    keep(i + 1);
  }
  const out = [header];
  let gap = false;
  for (let i = 0; i < lines.length; i++) {
    if (kept.has(i)) {
      out.push(lines[i]!);
      gap = false;
    } else if (!gap) {
      out.push(CHAT_OMITTED);
      gap = true;
    }
  }
  return out.join('\n');
}
