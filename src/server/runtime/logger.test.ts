import { describe, expect, it } from 'vitest';
import { createLogger } from './logger';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger('info', 'json', {
    write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>),
  });
  return { logger, lines };
}

describe('the server log', () => {
  it('replaces credentials at the top and two levels below, in objects and arrays, without changing them', () => {
    const { logger, lines } = capture();
    const logged = {
      password: 'hunter2-top',
      provider: { name: 'openai', apiKey: 'sk-level-two' },
      account: { session: { token: 'tok-level-three' } },
      providers: [{ api_key: 'sk-in-array' }],
      headers: { authorization: 'Bearer abc', cookie: 'sid=1', 'set-cookie': 'sid=2' },
      count: 3,
    };
    const before = structuredClone(logged);
    logger.info(logged, 'settings saved');

    const text = JSON.stringify(lines[0]);
    for (const secret of [
      'hunter2-top',
      'sk-level-two',
      'tok-level-three',
      'sk-in-array',
      'Bearer abc',
      'sid=',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(lines[0]).toMatchObject({
      msg: 'settings saved',
      password: '[redacted]',
      provider: { name: 'openai', apiKey: '[redacted]' },
      account: { session: { token: '[redacted]' } },
      providers: [{ api_key: '[redacted]' }],
      count: 3,
    });
    expect(logged).toEqual(before);
  });

  it('logs errors and requests through their serializers, and plain values as they are', () => {
    const { logger, lines } = capture();
    logger.info({ err: new Error('boom'), documentId: 'd1', tokenCount: 12 }, 'failed');
    expect(lines[0]).toMatchObject({
      documentId: 'd1',
      tokenCount: 12,
      err: { type: 'Error', message: 'boom' },
    });
  });
});
