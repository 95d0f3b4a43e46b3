import { expect, it } from 'vitest';
import { SseParser } from './sse';

it('parses data and named events split across chunks', () => {
  const parser = new SseParser();
  expect(parser.push('data: {"delta":"Hel')).toEqual([]);
  expect(parser.push('lo"}\n\ndata: {"delta":" world"}\n\nevent: do')).toEqual([
    { event: 'message', data: '{"delta":"Hello"}' },
    { event: 'message', data: '{"delta":" world"}' },
  ]);
  expect(parser.push('ne\ndata: {"text":"Hello world"}\n\n')).toEqual([
    { event: 'done', data: '{"text":"Hello world"}' },
  ]);
});

it('handles CRLF line endings and ignores comments', () => {
  const parser = new SseParser();
  expect(parser.push(': keep-alive\r\n\r\nevent: error\r\ndata: {"code":"x"}\r\n\r\n')).toEqual([
    { event: 'error', data: '{"code":"x"}' },
  ]);
});
