/**
 * Harper writes the words it talks about as Markdown code spans ("Did you mean `their`?"). The writer sees
 * those words set apart (the fix card) or in quotation marks (the underline's tooltip), never the backticks.
 */
export interface GrammarMessagePart {
  text: string;
  /** A word or phrase the message quotes from the text or suggests. */
  quoted: boolean;
}

export function grammarMessageParts(message: string): GrammarMessagePart[] {
  const pieces = message.split('`');
  // An odd number of backticks leaves the last one unpaired: it is dropped, with the text after it kept plain.
  const paired = pieces.length % 2 === 1 ? pieces.length : pieces.length - 1;
  const parts: GrammarMessagePart[] = [];
  pieces.forEach((text, index) => {
    const quoted = index % 2 === 1 && index < paired;
    if (text) parts.push({ text, quoted });
  });
  return parts;
}

/** The message as plain text, quoted words in quotation marks. */
export function grammarMessageText(message: string): string {
  return grammarMessageParts(message)
    .map((part) => (part.quoted ? `“${part.text}”` : part.text))
    .join('');
}
