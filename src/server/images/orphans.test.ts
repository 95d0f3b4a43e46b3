import { existsSync } from 'node:fs';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageSrc } from '../../shared/editor/image-src';
import type { RichTextNode } from '../../shared/schemas/richText';
import { documentImages, documents, documentVersions, templates } from '../db/schema';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';
import { ORPHAN_IMAGE_GRACE_MS, sweepOrphanedImages } from './orphans';
import { seedImage, startTestS3, testPng, type TestS3 } from './testing';

const HOUR = 60 * 60 * 1000;
const silent = { error: () => {} };

const imageNode = (documentId: string, imageId: string): RichTextNode => ({
  type: 'image',
  attrs: { src: imageSrc(documentId, imageId), alt: 'A picture' },
});
const docOf = (...content: RichTextNode[]) => ({ type: 'doc' as const, content });

for (const kind of ['disk', 's3'] as const) {
  describe(`the orphaned-image sweep (${kind} store)`, () => {
    let server: TestServer;
    let s3: TestS3 | undefined;
    let owner: TestUser;

    beforeAll(async () => {
      if (kind === 's3') s3 = await startTestS3();
      server = await startTestServer(s3 ? { env: s3.env } : {});
      owner = await createUser(server);
    });
    afterAll(async () => {
      await server?.close();
      await s3?.close();
    });

    /** Where the image's bytes are in the store's own files. */
    const fileOf = (documentId: string, imageId: string) =>
      s3
        ? path.join(s3.directory, s3.env.S3_BUCKET!, 'images', documentId, `${imageId}.png._S3rver_object`)
        : path.join(server.config.DATA_DIR, 'images', documentId, `${imageId}.png`);

    async function newDocument(title: string, values: Partial<typeof documents.$inferInsert> = {}) {
      const [row] = await server.database.db
        .insert(documents)
        .values({ userId: owner.id, title, content: docOf(), ...values })
        .returning({ id: documents.id });
      return row!.id;
    }

    async function image(documentId: string, ageMs = ORPHAN_IMAGE_GRACE_MS + HOUR) {
      const id = await seedImage(server, documentId, owner.id, await testPng());
      await server.database.db
        .update(documentImages)
        .set({ createdAt: new Date(Date.now() - ageMs) })
        .where(eq(documentImages.id, id));
      return id;
    }

    const setContent = (documentId: string, ...content: RichTextNode[]) =>
      server.database.db
        .update(documents)
        .set({ content: docOf(...content) })
        .where(eq(documents.id, documentId));

    it('deletes an image past the grace period that nothing names, keeps every image something names', async () => {
      const doc = await newDocument('Pictures');
      const inText = await image(doc);
      const inVersion = await image(doc);
      const orphan = await image(doc);
      const recent = await image(doc, HOUR);
      await setContent(doc, imageNode(doc, inText));
      await server.database.db.insert(documentVersions).values({
        documentId: doc,
        reason: 'auto',
        title: 'Pictures',
        content: docOf(imageNode(doc, inVersion)),
      });

      const trashed = await newDocument('In the trash', { trashedAt: new Date() });
      const inTrash = await image(trashed);
      await setContent(trashed, imageNode(trashed, inTrash));

      // Copied into another document: the copy keeps the first document's address.
      const source = await newDocument('Source');
      const copied = await image(source);
      await setContent(await newDocument('Copy'), imageNode(source, copied));

      const inTemplate = await image(source);
      await server.database.db.insert(templates).values({
        userId: owner.id,
        name: 'With picture',
        title: 'T',
        content: docOf(imageNode(source, inTemplate)),
      });

      const kept = [inText, inVersion, recent, inTrash, copied, inTemplate];
      for (const [documentId, id] of [
        [doc, orphan],
        [doc, inText],
      ] as const)
        expect(existsSync(fileOf(documentId, id)), id).toBe(true);

      expect(await sweepOrphanedImages(server.app.deps, server.app.imageStore, silent)).toBe(1);

      const rows = await server.database.db
        .select({ id: documentImages.id })
        .from(documentImages)
        .where(inArray(documentImages.id, [...kept, orphan]));
      expect(new Set(rows.map((row) => row.id))).toEqual(new Set(kept));
      expect(existsSync(fileOf(doc, orphan))).toBe(false);
      for (const [documentId, id] of [
        [doc, inText],
        [doc, inVersion],
        [doc, recent],
        [trashed, inTrash],
        [source, copied],
      ] as const)
        expect(existsSync(fileOf(documentId, id)), id).toBe(true);

      // Served no more; its place in the owner's storage is free again.
      const res = await fetch(`${server.url}${imageSrc(doc, orphan)}`, {
        headers: { authorization: `Bearer ${owner.token}` },
      });
      expect(res.status).toBe(404);

      // The next round finds nothing more to delete; once the recent image's grace is over and its text is
      // gone, it goes too.
      expect(await sweepOrphanedImages(server.app.deps, server.app.imageStore, silent)).toBe(0);
      expect(
        await sweepOrphanedImages(server.app.deps, server.app.imageStore, silent, {
          now: new Date(Date.now() + ORPHAN_IMAGE_GRACE_MS),
        }),
      ).toBe(1);
      expect(existsSync(fileOf(doc, recent))).toBe(false);
    });

    it('an image removed from the text but named again before the round stays', async () => {
      const doc = await newDocument('Back again');
      const id = await image(doc);
      await setContent(doc, { type: 'paragraph', content: [{ type: 'text', text: 'cut' }] });
      await setContent(doc, imageNode(doc, id));
      expect(await sweepOrphanedImages(server.app.deps, server.app.imageStore, silent)).toBe(0);
      expect(existsSync(fileOf(doc, id))).toBe(true);
    });
  });
}
