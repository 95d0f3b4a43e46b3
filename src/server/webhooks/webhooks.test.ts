import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WEBHOOK_DISABLE_AFTER_FAILURES } from '../../shared/constants';
import type { Webhook, WebhookDelivery } from '../../shared/schemas/webhooks';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A webhook receiver on loopback: records every request and answers with `status`. */
let receiver: Server;
let receiverUrl: string;
let received: Received[] = [];
let answerStatus = 200;

let server: TestServer;
let alice: TestUser;
let bob: TestUser;

const UPDATE_DEBOUNCE_MS = 400;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(answerStatus, { 'content-type': 'text/plain' });
      response.end('receiver words that must never be stored');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  receiverUrl = `http://127.0.0.1:${port}/hooks`;
  server = await startTestServer({
    // Only this receiver's port is opened: other loopback ports stay refused.
    env: { OUTBOUND_ALLOWED_HOSTS: `127.0.0.1:${port}` },
    webhookOptions: { retryDelaysMs: [0], updateDebounceMs: UPDATE_DEBOUNCE_MS, pollIntervalMs: 50 },
  });
  [alice, bob] = await Promise.all([createUser(server), createUser(server)]);
});

afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

beforeEach(async () => {
  // A test that failed half-way leaves no webhook behind for the next.
  await removeWebhooks(alice);
  received = [];
  answerStatus = 200;
});

async function addWebhook(user: TestUser, events: string[]): Promise<{ webhook: Webhook; secret: string }> {
  const res = await server.request('POST', '/api/webhooks', {
    token: user.token,
    body: { url: receiverUrl, events },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { webhook: Webhook; secret: string };
}

async function removeWebhooks(user: TestUser) {
  const list = await server.request('GET', '/api/webhooks', { token: user.token });
  for (const webhook of list.body.webhooks as Webhook[]) {
    await server.request('DELETE', `/api/webhooks/${webhook.id}`, { token: user.token });
  }
}

async function newDocument(user: TestUser, title: string): Promise<string> {
  const res = await server.request('POST', '/api/documents', {
    token: user.token,
    body: {
      title,
      content: {
        type: 'doc',
        content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Private words' }] }],
      },
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

async function until<T>(
  read: () => Promise<T> | T,
  done: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function verify(secret: string, header: string, body: string): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(`${match[1]}.${body}`).digest();
  return (
    Math.abs(Date.now() / 1000 - Number(match[1])) < 300 &&
    timingSafeEqual(expected, Buffer.from(match[2]!, 'hex'))
  );
}

describe('webhooks', () => {
  it('deliver a signed event for a new document, and show it delivered in the log; the secret is shown once', async () => {
    const { webhook, secret } = await addWebhook(alice, ['document.created', 'document.trashed']);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{40,}$/);
    const list = await server.request('GET', '/api/webhooks', { token: alice.token });
    expect(JSON.stringify(list.body)).not.toContain(secret);
    expect(list.body.webhooks).toEqual([
      expect.objectContaining({ id: webhook.id, url: receiverUrl, disabledAt: null }),
    ]);

    const documentId = await newDocument(alice, 'Quarterly letter');
    const [delivery] = await until(
      () => received,
      (all) => all.length >= 1,
    );
    expect(delivery!.headers['quillwright-event']).toBe('document.created');
    expect(verify(secret, String(delivery!.headers['quillwright-signature']), delivery!.body)).toBe(true);
    // A body changed on the way no longer matches its signature.
    expect(
      verify(
        secret,
        String(delivery!.headers['quillwright-signature']),
        delivery!.body.replace('created', 'deleted'),
      ),
    ).toBe(false);
    const payload = JSON.parse(delivery!.body) as Record<string, unknown>;
    expect(payload).toMatchObject({ type: 'document.created', data: { documentId } });
    // Which document, not what it says.
    expect(delivery!.body).not.toContain('Quarterly letter');
    expect(delivery!.body).not.toContain('Private words');

    const log = await until(
      async () =>
        (await server.request('GET', `/api/webhooks/${webhook.id}/deliveries`, { token: alice.token })).body
          .deliveries as WebhookDelivery[],
      (deliveries) => deliveries[0]?.status === 'delivered',
    );
    expect(log[0]).toMatchObject({
      event: 'document.created',
      documentId,
      attempts: 1,
      lastStatus: 200,
      lastError: null,
    });
    expect(JSON.stringify(log)).not.toContain('receiver words');

    // Events the webhook did not ask for are not sent; the ones it did are.
    await server.request('PATCH', `/api/documents/${documentId}`, {
      token: alice.token,
      body: { title: 'Renamed' },
    });
    await server.request('DELETE', `/api/documents/${documentId}`, { token: alice.token });
    await until(
      () => received,
      (all) => all.length >= 2,
    );
    expect(received.map((entry) => entry.headers['quillwright-event'])).toEqual([
      'document.created',
      'document.trashed',
    ]);
    await removeWebhooks(alice);
  });

  it('announce a burst of changes to a document with one document.updated', async () => {
    const documentId = await newDocument(alice, 'Draft');
    await addWebhook(alice, ['document.updated']);
    for (const title of ['Draft 2', 'Draft 3', 'Draft 4']) {
      const res = await server.request('PATCH', `/api/documents/${documentId}`, {
        token: alice.token,
        body: { title },
      });
      expect(res.status, res.text).toBe(200);
    }
    await until(
      () => received,
      (all) => all.length >= 1,
    );
    await new Promise((resolve) => setTimeout(resolve, UPDATE_DEBOUNCE_MS * 2));
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0]!.body)).toMatchObject({ type: 'document.updated', data: { documentId } });
    await removeWebhooks(alice);
  });

  it('retry a failing receiver, then disable the webhook after failures in a row; enabling it sends again', async () => {
    answerStatus = 500;
    const { webhook } = await addWebhook(alice, ['document.created']);
    for (let index = 0; index < WEBHOOK_DISABLE_AFTER_FAILURES; index++)
      await newDocument(alice, `Failing ${index}`);
    const disabled = await until(
      async () =>
        (
          (await server.request('GET', '/api/webhooks', { token: alice.token })).body.webhooks as Webhook[]
        )[0]!,
      (found) => found.disabledAt !== null,
      20_000,
    );
    expect(disabled.consecutiveFailures).toBe(WEBHOOK_DISABLE_AFTER_FAILURES);
    // Each delivery was tried twice (the first attempt and one retry).
    expect(received).toHaveLength(WEBHOOK_DISABLE_AFTER_FAILURES * 2);
    const log = (
      await server.request('GET', `/api/webhooks/${webhook.id}/deliveries`, { token: alice.token })
    ).body.deliveries as WebhookDelivery[];
    expect(log).toHaveLength(WEBHOOK_DISABLE_AFTER_FAILURES);
    for (const delivery of log) {
      expect(delivery).toMatchObject({
        status: 'failed',
        attempts: 2,
        lastStatus: 500,
        lastError: 'The receiver answered 500.',
      });
    }

    // Disabled: nothing more is sent.
    await newDocument(alice, 'While disabled');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(received).toHaveLength(WEBHOOK_DISABLE_AFTER_FAILURES * 2);

    answerStatus = 200;
    const enabled = await server.request('POST', `/api/webhooks/${webhook.id}/enable`, {
      token: alice.token,
    });
    expect(enabled.status, enabled.text).toBe(200);
    expect(enabled.body).toMatchObject({ disabledAt: null, consecutiveFailures: 0 });
    await newDocument(alice, 'After enabling');
    await until(
      () => received,
      (all) =>
        all.some(
          (entry) => entry.headers['quillwright-event'] === 'document.created' && answerStatus === 200,
        ) && all.length > WEBHOOK_DISABLE_AFTER_FAILURES * 2,
    );
    await removeWebhooks(alice);
  });

  it('refuse link-local, metadata and loopback addresses not opened by the operator, and what is not http', async () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data',
      'http://[fe80::1]/hook',
      'http://127.0.0.1:1/hook',
      'http://[::1]/hook',
      'http://10.0.0.5/hook',
    ]) {
      const res = await server.request('POST', '/api/webhooks', {
        token: alice.token,
        body: { url, events: ['document.created'] },
      });
      expect(res.status, url).toBe(400);
      expect(res.body.code, url).toBe('webhook_url_refused');
    }
    for (const body of [
      { url: 'ftp://example.com/hook', events: ['document.created'] },
      { url: receiverUrl, events: [] },
      { url: receiverUrl, events: ['document.exploded'] },
      { url: receiverUrl, events: ['document.created'], secret: 'mine' },
    ]) {
      const res = await server.request('POST', '/api/webhooks', { token: alice.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
  });

  it("keep each user's webhooks to themselves", async () => {
    const { webhook } = await addWebhook(alice, ['document.created']);
    for (const [method, path] of [
      ['DELETE', `/api/webhooks/${webhook.id}`],
      ['POST', `/api/webhooks/${webhook.id}/enable`],
      ['GET', `/api/webhooks/${webhook.id}/deliveries`],
      ['GET', '/api/webhooks/not-an-id/deliveries'],
    ] as const) {
      const res = await server.request(method, path, { token: bob.token });
      expect(res.status, path).toBe(404);
      expect(res.body.code).toBe('webhook_not_found');
    }
    expect((await server.request('GET', '/api/webhooks', { token: bob.token })).body.webhooks).toEqual([]);
    // Bob's documents never reach Alice's webhook.
    await newDocument(bob, "Bob's");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(received).toHaveLength(0);
    expect((await server.request('GET', '/api/webhooks')).status).toBe(401);
    await removeWebhooks(alice);
  });

  it("send comment.created when someone comments on the owner's document or replies", async () => {
    const documentId = await newDocument(alice, 'Commented');
    await addWebhook(alice, ['comment.created']);
    const threadId = randomUUID();
    const thread = await server.request('POST', `/api/documents/${documentId}/threads`, {
      token: alice.token,
      body: { id: threadId, anchor: { quote: 'Private' }, body: 'Is this right?' },
    });
    expect(thread.status, thread.text).toBe(201);
    const [first] = await until(
      () => received,
      (all) => all.length >= 1,
    );
    expect(first!.headers['quillwright-event']).toBe('comment.created');
    expect(JSON.parse(first!.body)).toMatchObject({ type: 'comment.created', data: { documentId } });
    // Resolving is not a new comment; a reply is.
    await server.request('PATCH', `/api/documents/${documentId}/threads/${threadId}`, {
      token: alice.token,
      body: { status: 'resolved' },
    });
    const replied = await server.request(
      'POST',
      `/api/documents/${documentId}/threads/${threadId}/comments`,
      {
        token: alice.token,
        body: { body: 'Yes.' },
      },
    );
    expect(replied.status, replied.text).toBe(201);
    const all = await until(
      () => received,
      (all) => all.length >= 2,
    );
    expect(all.map((delivery) => delivery.headers['quillwright-event'])).toEqual([
      'comment.created',
      'comment.created',
    ]);
  });
});
