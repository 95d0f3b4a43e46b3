import { format, parseISO } from 'date-fns';
import type { RichTextDoc, RichTextNode } from '../schemas/richText';

/**
 * Template variables: `{{date}}` and `{{title}}`, in a template's title and text, filled when a document is
 * made from it. Spaces inside the braces are allowed (`{{ date }}`); anything else in braces stays as written.
 */

export interface TemplateVariables {
  /** The writer's local date, already readable ("November 28, 2026"). */
  date: string;
  title: string;
}

const VARIABLE = /\{\{\s*(date|title)\s*\}\}/g;

/** A local calendar date (YYYY-MM-DD, as the writer's browser sends it) the way `{{date}}` shows it. */
export function readableDate(isoDate: string): string {
  return format(parseISO(isoDate), 'MMMM d, yyyy');
}

export function fillText(text: string, variables: TemplateVariables): string {
  return text.replace(VARIABLE, (_match, name: keyof TemplateVariables) => variables[name]);
}

function fillNodes(nodes: readonly RichTextNode[], variables: TemplateVariables): RichTextNode[] {
  const out: RichTextNode[] = [];
  for (const node of nodes) {
    if (node.type === 'text' && typeof node.text === 'string') {
      const text = fillText(node.text, variables);
      // The editor has no empty text nodes.
      if (text !== '') out.push({ ...node, text });
    } else {
      out.push(node.content ? { ...node, content: fillNodes(node.content, variables) } : node);
    }
  }
  return out;
}

/** The content with every variable in its text filled (a new tree; the template is not changed). */
export function fillDocument(doc: RichTextDoc, variables: TemplateVariables): RichTextDoc {
  return { type: 'doc', content: fillNodes(doc.content, variables) };
}
