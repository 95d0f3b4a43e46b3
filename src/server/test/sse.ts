import type { TestServer } from './server';

interface SseEvent {
  event: string;
  data: any;
}

/** The events of a whole `text/event-stream` body, each with its JSON data. */
function parseSse(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim())
    .map((block) => {
      let event = 'message';
      let data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) data += line.slice(6);
      }
      return { event, data: JSON.parse(data) };
    });
}

/**
 * POSTs as a client that accepts a stream and reads the answer to its end: the events when the server
 * streamed, the JSON body when it answered with an error instead.
 */
export async function streamRequest(server: TestServer, path: string, token: string, body: unknown) {
  const response = await fetch(server.url + path, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'text/event-stream',
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const isStream = (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
  return {
    response,
    status: response.status,
    events: isStream ? parseSse(text) : [],
    json: isStream ? undefined : JSON.parse(text),
  };
}
