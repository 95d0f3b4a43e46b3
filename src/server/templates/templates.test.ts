import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RichTextDoc } from '../../shared/schemas/richText';
import type { TemplateList, TemplateSummary } from '../../shared/schemas/templates';
import { BUILT_IN_TEMPLATES } from '../../shared/templates/builtin';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';

const body = (...paragraphs: string[]): RichTextDoc => ({
  type: 'doc',
  content: paragraphs.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })),
});

let server: TestServer;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  [alice, bob] = await Promise.all([createUser(server), createUser(server)]);
});
afterAll(() => server?.close());

async function createDocument(user: TestUser, title: string, content: RichTextDoc) {
  const res = await server.request('POST', '/api/documents', { token: user.token, body: { title, content } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

async function list(user: TestUser): Promise<TemplateList> {
  const res = await server.request('GET', '/api/templates', { token: user.token });
  expect(res.status, res.text).toBe(200);
  return res.body as TemplateList;
}

async function save(user: TestUser, documentId: string, name?: string): Promise<TemplateSummary> {
  const res = await server.request('POST', '/api/templates', {
    token: user.token,
    body: { documentId, name },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as TemplateSummary;
}

const use = (user: TestUser, id: string, input: { date: string; title?: string }) =>
  server.request('POST', `/api/templates/${id}/documents`, { token: user.token, body: input });

describe('built-in templates', () => {
  it('are listed for everyone with a preview of their opening text', async () => {
    const { builtIn, mine } = await list(alice);
    expect(builtIn.map((t) => t.id)).toEqual(BUILT_IN_TEMPLATES.map((t) => t.id));
    expect(mine).toEqual([]);
    const meeting = builtIn.find((t) => t.id === 'meeting-notes')!;
    expect(meeting).toMatchObject({ name: 'Meeting notes', builtIn: true, created_at: null });
    expect(meeting.preview).toContain('{{title}}');
    expect(meeting.preview.length).toBeLessThanOrEqual(281);
  });

  it('make a document with {{date}} and {{title}} filled in its title and text', async () => {
    const res = await use(alice, 'meeting-notes', { date: '2026-11-28', title: '' });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('etag')).toBe('"1"');
    expect(res.body.title).toBe('Meeting notes: November 28, 2026');
    const text = JSON.stringify(res.body.content);
    expect(text).toContain('November 28, 2026');
    expect(text).not.toContain('{{');
    // No title asked for: {{title}} is the template's name.
    expect(res.body.content.content[0]).toMatchObject({
      type: 'paragraph',
      content: [{ text: 'Topic: ' }, { text: 'Meeting notes' }],
    });

    const named = await use(alice, 'novel-chapter', { date: '2027-01-05', title: 'Chapter 3: The Ferry' });
    expect(named.status).toBe(201);
    expect(named.body.title).toBe('Chapter 3: The Ferry');
    expect(JSON.stringify(named.body.content)).toContain('Draft begun January 5, 2027');

    const listed = await server.request('GET', '/api/search/documents', { token: alice.token });
    expect(listed.body.documents.map((d: { id: string }) => d.id)).toContain(named.body.id);
  });

  it('refuse a missing or malformed date and an unknown template', async () => {
    expect((await use(alice, 'blog-post', { date: '28/11/2026' })).status).toBe(400);
    expect((await use(alice, 'blog-post', {} as { date: string })).status).toBe(400);
    const unknown = await use(alice, 'no-such-template', { date: '2026-11-28' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('template_not_found');
  });
});

describe("a writer's own templates", () => {
  it('save a document as a template, list it newest first, make documents from it, and delete it', async () => {
    const user = await createUser(server);
    const documentId = await createDocument(
      user,
      'Weekly report {{date}}',
      body('Report for {{title}}', 'Wins, risks, next week.'),
    );
    const template = await save(user, documentId, '  Weekly report  ');
    expect(template).toMatchObject({
      name: 'Weekly report',
      builtIn: false,
      title: 'Weekly report {{date}}',
    });
    expect(template.preview).toBe('Report for {{title}}\n\nWins, risks, next week.');
    const unnamed = await save(user, documentId);
    expect(unnamed.name).toBe('Weekly report {{date}}');
    expect((await list(user)).mine.map((t) => t.id)).toEqual([unnamed.id, template.id]);

    const made = await use(user, template.id, { date: '2026-12-01' });
    expect(made.status, made.text).toBe(201);
    expect(made.body.title).toBe('Weekly report December 1, 2026');
    expect(made.body.content).toEqual(body('Report for Weekly report', 'Wins, risks, next week.'));
    const titled = await use(user, template.id, { date: '2026-12-01', title: 'Team Falcon' });
    expect(titled.body.title).toBe('Team Falcon');
    expect(titled.body.content.content[0].content[0].text).toBe('Report for Team Falcon');

    // The template is a copy: changing the document later leaves it as it was.
    await server.request('PATCH', `/api/documents/${documentId}`, {
      token: user.token,
      body: { content: body('Changed') },
    });
    expect((await list(user)).mine.find((t) => t.id === template.id)?.preview).toContain('Wins, risks');

    const removed = await server.request('DELETE', `/api/templates/${template.id}`, { token: user.token });
    expect(removed.status).toBe(204);
    expect((await list(user)).mine.map((t) => t.id)).toEqual([unnamed.id]);
    expect((await use(user, template.id, { date: '2026-12-01' })).status).toBe(404);
  });

  it("another user's template and document answer 404, and their templates are never listed", async () => {
    const documentId = await createDocument(alice, 'Alice only', body('Secret plans'));
    const template = await save(alice, documentId);

    const saveOthers = await server.request('POST', '/api/templates', {
      token: bob.token,
      body: { documentId },
    });
    expect(saveOthers.status).toBe(404);
    expect(JSON.stringify(await list(bob))).not.toContain(template.id);
    const used = await use(bob, template.id, { date: '2026-11-28' });
    expect(used.status).toBe(404);
    expect(used.body.code).toBe('template_not_found');
    const deleted = await server.request('DELETE', `/api/templates/${template.id}`, { token: bob.token });
    expect(deleted.status).toBe(404);
    expect((await server.request('DELETE', '/api/templates/blog-post', { token: bob.token })).status).toBe(
      404,
    );
    expect((await list(alice)).mine.map((t) => t.id)).toContain(template.id);
  });

  it('cannot be saved from a trashed document', async () => {
    const documentId = await createDocument(alice, 'Going away', body('Soon gone'));
    await server.request('DELETE', `/api/documents/${documentId}`, { token: alice.token });
    const res = await server.request('POST', '/api/templates', { token: alice.token, body: { documentId } });
    expect(res.status).toBe(404);
  });
});

describe('plan limits', () => {
  let enforced: TestServer;
  beforeAll(async () => {
    enforced = await startTestServer({ env: { ENFORCE_PLAN_LIMITS: 'true' } });
  }, 120_000);
  afterAll(() => enforced?.close());

  it("a Gratis writer's fourth document from a template is refused with 403 plan_limit, like any create", async () => {
    const user = await createUser(enforced);
    for (const id of ['blog-post', 'cover-letter', 'short-story']) {
      const res = await enforced.request('POST', `/api/templates/${id}/documents`, {
        token: user.token,
        body: { date: '2026-11-28', title: id },
      });
      expect(res.status, res.text).toBe(201);
    }
    const fourth = await enforced.request('POST', '/api/templates/meeting-notes/documents', {
      token: user.token,
      body: { date: '2026-11-28' },
    });
    expect(fourth.status).toBe(403);
    expect(fourth.body).toMatchObject({ code: 'plan_limit', limit: 3 });
    const docs = await enforced.request('GET', '/api/documents', { token: user.token });
    expect(docs.body).toHaveLength(3);
  });
});
