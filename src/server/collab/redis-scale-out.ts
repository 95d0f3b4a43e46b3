import { Redis } from '@hocuspocus/extension-redis';
import type { onStoreDocumentPayload } from '@hocuspocus/server';
import type { FastifyBaseLogger } from 'fastify';
import IORedis from 'ioredis';
import { retryStoreLater } from './persistence-extension';

type RedisClientFactory = NonNullable<ConstructorParameters<typeof Redis>[0]['createClient']>;

/**
 * The Redis extension takes a lock before each store and, when it cannot (another instance holds it, or Redis
 * is unreachable), skips the store silently. Then nothing stored the edits of this instance that the other
 * instance's store did not include, or — Redis down — anything at all, until the next change. A skipped
 * store is tried again after the debounce instead (retryStoreLater).
 */
class RetryingRedis extends Redis {
  override async onStoreDocument(payload: onStoreDocumentPayload) {
    try {
      await super.onStoreDocument(payload);
    } catch (error) {
      if ((error as Error | undefined)?.name === 'SkipFurtherHooksError') retryStoreLater(payload);
      throw error;
    }
  }
}

/** Hocuspocus's Redis extension for several instances behind one address (REDIS_URL). */
export function createRedisScaleOut(redisUrl: string, prefix: string, log: FastifyBaseLogger): Redis {
  return new RetryingRedis({
    prefix,
    // Time given to Redis round trips before a document is unloaded (default 1 s); a REST write to a
    // document opened only for it waits this long, and loopback Redis needs far less.
    disconnectDelay: 250,
    // The extension bundles its own copy of ioredis 5; the instances are interchangeable at runtime.
    createClient: (() => {
      const client = new IORedis(redisUrl, { maxRetriesPerRequest: 3 });
      // ioredis reconnects by itself; log instead of printing "Unhandled error event".
      client.on('error', (error: Error) => log.warn({ err: error }, 'redis connection error'));
      return client;
    }) as unknown as RedisClientFactory,
  });
}
