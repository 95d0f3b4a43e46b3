import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboundPolicy, parseAllowList, type Resolver } from './address-policy';
import { OutboundClient } from './client';
import { OutboundRefusedError, outboundFailureMessage } from './errors';

/** Requests through the guard against loopback servers; host names resolve through a scripted resolver. */

let server: Server;
let port: number;
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.headers.host} ${req.url}`);
    if (req.url === '/redirect') {
      res.writeHead(302, { location: `http://127.0.0.1:${port}/elsewhere` }).end();
    } else if (req.url === '/silent') {
      // Headers, then nothing: the total budget must end it.
      res.writeHead(200).write('x');
    } else {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
);

/** Every name resolves to what the map says; a call is recorded. */
function scriptedResolver(answers: Record<string, string[]>, asked: string[] = []): Resolver {
  return async (hostname) => {
    asked.push(hostname);
    return (answers[hostname] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

async function refusal(promise: Promise<unknown>): Promise<OutboundRefusedError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  let current = error as { cause?: unknown } | undefined;
  while (current && !(current instanceof OutboundRefusedError)) current = current.cause as typeof current;
  expect(current, String(error)).toBeInstanceOf(OutboundRefusedError);
  return current as OutboundRefusedError;
}

describe('OutboundClient', () => {
  it('refuses loopback by default and allows it when listed', async () => {
    const closed = new OutboundClient(outboundPolicy());
    const before = seen.length;
    expect((await refusal(closed.fetch(`http://127.0.0.1:${port}/`))).reason).toBe('address');
    expect(seen.length).toBe(before);

    const open = new OutboundClient(outboundPolicy(parseAllowList(`127.0.0.1:${port}`)));
    const response = await open.fetch(`http://127.0.0.1:${port}/`);
    expect(await response.text()).toBe('hello');
    await Promise.all([closed.close(), open.close()]);
  });

  it('checks the address a host name resolves to when connecting, and connects to exactly that address', async () => {
    const asked: string[] = [];
    const resolve = scriptedResolver(
      {
        'model.internal.test': ['10.20.30.40'],
        'looks-public.test': ['127.0.0.1'],
        'ok.test': ['127.0.0.1'],
      },
      asked,
    );
    const client = new OutboundClient(outboundPolicy(parseAllowList(`ok.test:${port}`), resolve));
    const before = seen.length;
    const privateName = await refusal(client.fetch(`http://model.internal.test:${port}/`));
    expect(privateName.message).toMatch(/10\.20\.30\.40/);
    // A name that passed any earlier check but now points at loopback (DNS rebinding) is refused too.
    await refusal(client.fetch(`http://looks-public.test:${port}/`));
    expect(seen.length).toBe(before);
    expect(asked).toEqual(['model.internal.test', 'looks-public.test']);

    // An allowed name reaches the address it resolved to, with its own Host header.
    const response = await client.fetch(`http://ok.test:${port}/named`);
    expect(await response.text()).toBe('hello');
    expect(seen.at(-1)).toBe(`ok.test:${port} /named`);
    await client.close();
  });

  it('never follows a redirect', async () => {
    const client = new OutboundClient(outboundPolicy(parseAllowList('127.0.0.1')));
    const before = seen.length;
    const error = await refusal(client.fetch(`http://127.0.0.1:${port}/redirect`));
    expect(error.reason).toBe('redirect');
    expect(outboundFailureMessage(error)).toMatch(/redirect/);
    await refusal(client.request(`http://127.0.0.1:${port}/redirect`, { method: 'GET' }));
    expect(seen.slice(before)).toEqual([`127.0.0.1:${port} /redirect`, `127.0.0.1:${port} /redirect`]);
    await client.close();
  });

  it('refuses other schemes, and metadata addresses even when everything else is allowed', async () => {
    const client = new OutboundClient(outboundPolicy(parseAllowList('0.0.0.0/0,::/0')));
    expect((await refusal(client.fetch('file:///etc/passwd'))).reason).toBe('scheme');
    expect((await refusal(client.fetch('http://169.254.169.254/latest/meta-data/'))).reason).toBe('address');
    expect((await refusal(client.fetch('http://[fd00:ec2::254]/'))).reason).toBe('address');
    await client.close();
  });

  it('ends a request that outlives its total budget', async () => {
    const client = new OutboundClient(outboundPolicy(parseAllowList('127.0.0.1')));
    const started = performance.now();
    const error = await client
      .request(`http://127.0.0.1:${port}/silent`, { method: 'GET', timeoutMs: 300 })
      .then((response) => response.body.text())
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(Error);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(outboundFailureMessage(error)).toBe('Could not reach the provider.');
    await client.close();
  });
});
