import { CHAT_MAX_EDITS } from '../constants';
import { chatEditSchema, type ChatEdit } from '../schemas/ai-chat';

/**
 * The answer format of "Chat with the document" (prompts.chat): Markdown prose for the writer, then, for a
 * change request, one fenced block opened by ```edits holding a JSON array of `{ "find", "replace" }`. The
 * server parses the block when the answer is complete; the client hides it while the answer streams.
 */

const EDITS_FENCE = /```[ \t]*edits[ \t]*\r?\n/i;

/**
 * The prose part of a (possibly still streaming) answer: everything before the edits block. While an
 * answer streams, a fence still being written at its end ("```ed") is held back too, so the edits block
 * never flashes as code.
 */
export function chatProse(answer: string, options: { streaming?: boolean } = {}): string {
  const match = EDITS_FENCE.exec(answer);
  const prose = match ? answer.slice(0, match.index) : answer;
  return (options.streaming ? prose.replace(/```[^\n`]*$/, '') : prose).trim();
}

/**
 * Splits a complete answer into its prose and its edits. The model's output is never trusted: a block
 * that is not JSON gives no edits, and each item that is not a valid `{ find, replace }` is dropped (as
 * are items past CHAT_MAX_EDITS and ones that change nothing).
 */
export function parseChatAnswer(answer: string): { prose: string; edits: ChatEdit[]; dropped: number } {
  const match = EDITS_FENCE.exec(answer);
  if (!match) return { prose: answer.trim(), edits: [], dropped: 0 };
  const prose = answer.slice(0, match.index).trim();
  const rest = answer.slice(match.index + match[0].length);
  const close = rest.indexOf('```');
  const body = (close >= 0 ? rest.slice(0, close) : rest).trim();
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    return { prose, edits: [], dropped: 1 };
  }
  const items = Array.isArray(raw) ? raw : [raw];
  const edits: ChatEdit[] = [];
  let dropped = 0;
  for (const item of items) {
    const parsed = chatEditSchema.safeParse(item);
    if (!parsed.success || parsed.data.find === parsed.data.replace || edits.length >= CHAT_MAX_EDITS) {
      dropped += 1;
      continue;
    }
    edits.push(parsed.data);
  }
  return { prose, edits, dropped };
}
