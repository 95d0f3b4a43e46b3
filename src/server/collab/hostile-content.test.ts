import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import {
  COLLAB_CLOSE,
  COLLAB_FRAGMENT,
  COLLAB_LIMITS,
  isStoredFor,
} from '../../shared/editor/collab-protocol';
import { sanitizeDocContent } from '../../shared/schemas/richText';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';
import { connectCollabClient, waitFor, type CollabClient } from './testing';

const clients: CollabClient[] = [];
async function connect(server: TestServer, documentId: string, token: string) {
  const client = await connectCollabClient({ serverUrl: server.url, documentId, token });
  clients.push(client);
  return client;
}

async function createDocument(server: TestServer, user: TestUser): Promise<string> {
  const res = await server.request('POST', '/api/documents', {
    token: user.token,
    body: {
      title: 'Hostile',
      content: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'kept' }] }] },
    },
  });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

/** What a hostile client can put in the Yjs document that the editor itself would never produce. */
function writeHostileContent(doc: Y.Doc): void {
  const fragment = doc.getXmlFragment(COLLAB_FRAGMENT);
  doc.transact(() => {
    const iframe = new Y.XmlElement('iframe');
    iframe.setAttribute('src', 'javascript:alert(1)');
    const heading = new Y.XmlElement('heading');
    heading.setAttribute('level', 9 as unknown as string);
    heading.insert(0, [new Y.XmlText('deep heading')]);
    const link = new Y.XmlElement('paragraph');
    const linkText = new Y.XmlText();
    linkText.insert(0, 'click me', { link: { href: 'javascript:alert(1)' } });
    link.insert(0, [linkText]);
    const styled = new Y.XmlElement('paragraph');
    const styledText = new Y.XmlText();
    styledText.insert(0, 'huge attribute', { textStyle: { color: 'x'.repeat(100_000) } });
    styled.insert(0, [styledText]);
    // A mark whose attributes are not an object (the editor writes `{ bold: {} }`).
    const oddMark = new Y.XmlElement('paragraph');
    const oddMarkText = new Y.XmlText();
    oddMarkText.insert(0, 'odd bold', { bold: true });
    oddMark.insert(0, [oddMarkText]);
    const script = new Y.XmlElement('script');
    script.insert(0, [new Y.XmlText('alert(1)')]);
    fragment.insert(fragment.length, [iframe, heading, link, styled, oddMark, script]);
  });
}

describe('hostile live content and socket limits', () => {
  let server: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    server = await startTestServer();
    owner = await createUser(server);
  });
  afterAll(async () => {
    for (const client of clients.splice(0)) client.destroy();
    await server?.close();
  });

  async function expectCleanEverywhere(id: string, writer: CollabClient, bystander: CollabClient) {
    // Stored once the writer's own edits are in the database...
    await waitFor(
      () => writer.messages.some((m) => m.type === 'stored' && isStoredFor(m, writer.doc)),
      10_000,
      'store',
    );
    const res = await server.request('GET', `/api/documents/${id}`, { token: owner.token });
    expect(res.status).toBe(200);
    const stored = JSON.stringify(res.body.content);
    expect(stored).not.toMatch(/iframe|script|javascript:|xxxxxxxxxx/u);
    expect(stored).toContain('kept');
    expect(stored).toContain('deep heading');
    expect(stored).toContain('click me');
    const heading = (res.body.content.content as { type: string; attrs?: { level?: number } }[]).find(
      (node) => node.type === 'heading',
    );
    expect(heading?.attrs?.level).toBe(3);
    // What is stored is exactly what the REST validator accepts.
    expect(sanitizeDocContent(res.body.content)).toEqual({ ok: true, doc: res.body.content });
    expect(stored).toContain('odd bold');

    // ...and every editor converges on the repaired document.
    const xml = () => writer.doc.getXmlFragment(COLLAB_FRAGMENT).toString();
    await waitFor(() => !/iframe|script|javascript:/u.test(xml()), 5_000, 'writer converges');
    await waitFor(
      () => bystander.doc.getXmlFragment(COLLAB_FRAGMENT).toString() === xml(),
      5_000,
      'bystander converges',
    );

    for (const format of ['md', 'html', 'txt', 'docx']) {
      const exported = await server.request('GET', `/api/documents/${id}/export?format=${format}`, {
        token: owner.token,
      });
      expect(exported.status, format).toBe(200);
      if (format !== 'docx') {
        expect(exported.text, format).not.toMatch(/iframe|<script|javascript:/iu);
        expect(exported.text, format).toContain('deep heading');
      }
    }
  }

  it("repairs the owner's hostile updates before storing: clean content, every export 200", async () => {
    const id = await createDocument(server, owner);
    const writer = await connect(server, id, owner.token);
    const bystander = await connect(server, id, owner.token);
    writeHostileContent(writer.doc);
    await expectCleanEverywhere(id, writer, bystander);
  });

  it("repairs a share-link editor's hostile updates the same way", async () => {
    const id = await createDocument(server, owner);
    const share = await server.request('PUT', `/api/documents/${id}/share`, {
      token: owner.token,
      body: { isPublic: true, allowEditing: true },
    });
    expect(share.status).toBe(200);
    const opened = await server.request('GET', `/api/shared/${id}`);
    expect(opened.status).toBe(200);
    const visitor = await connect(server, id, opened.body.shareToken as string);
    const ownerClient = await connect(server, id, owner.token);
    writeHostileContent(visitor.doc);
    await expectCleanEverywhere(id, visitor, ownerClient);
  });

  it('cuts off a flood of messages and an oversized message; the other editor keeps working', async () => {
    const id = await createDocument(server, owner);
    const flooder = await connect(server, id, owner.token);
    const other = await connect(server, id, owner.token);
    const text = flooder.doc.getXmlFragment(COLLAB_FRAGMENT).get(0) as Y.XmlElement;
    // One message per transaction, far more at once than the burst allows.
    for (let i = 0; i < COLLAB_LIMITS.messageBurst * 3; i++) (text.get(0) as Y.XmlText).insert(0, 'f');
    await waitFor(() => flooder.refusals.includes(COLLAB_CLOSE.rateLimited.reason), 10_000, 'flood cut off');

    const big = await connect(server, id, owner.token);
    big.doc.transact(() => big.appendParagraph('y'.repeat(COLLAB_LIMITS.maxMessageBytes + 1024)));
    await waitFor(
      () => big.refusals.includes(COLLAB_CLOSE.messageTooLarge.reason),
      10_000,
      'oversized cut off',
    );
    big.destroy();
    flooder.destroy();

    other.appendParagraph('still editing');
    await waitFor(
      () => other.messages.some((m) => m.type === 'stored' && isStoredFor(m, other.doc)),
      10_000,
      'store',
    );
    expect(other.refusals).toEqual([]);
    const res = await server.request('GET', `/api/documents/${id}`, { token: owner.token });
    const stored = JSON.stringify(res.body.content);
    expect(stored).toContain('still editing');
    expect(stored).not.toContain('yyyyyyyyyy');
    const late = await connect(server, id, owner.token);
    expect(late.paragraphs()).toContain('still editing');
  });
});
