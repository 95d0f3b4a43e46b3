/** Incremental parser of server-sent events (the subset the AI endpoints send: `event:` and `data:` lines). */
export interface SseMessage {
  event: string;
  data: string;
}

export class SseParser {
  private buffer = '';

  /** Feeds decoded text; returns the complete messages it finished. */
  push(text: string): SseMessage[] {
    this.buffer += text.replace(/\r\n?/g, '\n');
    const messages: SseMessage[] = [];
    let cut: number;
    while ((cut = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, cut);
      this.buffer = this.buffer.slice(cut + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
      if (data.length > 0) messages.push({ event, data: data.join('\n') });
    }
    return messages;
  }
}
