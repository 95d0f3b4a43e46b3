import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

export type ContentEncoding = 'br' | 'gzip';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Under this, a body goes as it is: compressing it would save little and cost a trip to the thread pool. */
const COMPRESS_MIN_BYTES = 16 * 1024;

/** The best encoding the client accepts (its `Accept-Encoding`) of those the server makes, or null. */
export function acceptedEncoding(acceptEncoding: string | undefined): ContentEncoding | null {
  return acceptEncoding ? negotiate<ContentEncoding>(acceptEncoding, ['br', 'gzip']) : null;
}

/**
 * A body compressed in zlib's thread pool, so the server goes on answering meanwhile. Quickly by default, at
 * levels fit for one request (brotli 4: a 100,000-word book's Yjs state, about 680 KB, became 150 KB in about
 * 8 ms); `thoroughly` for a body that is made once and sent many times (brotli 11, gzip 9).
 */
export function compressBody(
  body: Buffer | string,
  encoding: ContentEncoding,
  thoroughly = false,
): Promise<Buffer> {
  return encoding === 'br'
    ? brotliAsync(body, {
        params: { [constants.BROTLI_PARAM_QUALITY]: thoroughly ? constants.BROTLI_MAX_QUALITY : 4 },
      })
    : gzipAsync(body, { level: thoroughly ? 9 : 6 });
}

/**
 * Sends `body` (its content type already set on `reply`) compressed when it is large and the client accepts
 * brotli or gzip, else as it is. A book is a large response: its Yjs state (about 680 KB at 100,000 words) or its
 * content as JSON (about 930 KB).
 */
export async function sendCompressible(
  request: FastifyRequest,
  reply: FastifyReply,
  body: Buffer | string,
): Promise<FastifyReply> {
  const vary = reply.getHeader('vary');
  reply.header('vary', typeof vary === 'string' && vary ? `${vary}, accept-encoding` : 'accept-encoding');
  const size = typeof body === 'string' ? body.length : body.byteLength;
  const encoding = size >= COMPRESS_MIN_BYTES ? acceptedEncoding(request.headers['accept-encoding']) : null;
  if (!encoding) return reply.send(body);
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  return reply.header('content-encoding', encoding).send(await compressBody(bytes, encoding));
}
