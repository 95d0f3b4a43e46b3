import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { limitsEnforced } from '../billing';
import { can, documentRole, entryFingerprint, loadSharedDocument, type DocumentAbility } from '../documents';
import { AppError, notFound } from '../errors';
import { isSessionSignedIn } from '../plugins';
import type { ServerDependencies } from '../dependencies';
import { imageSrc } from '../../shared/editor/image-src';
import { isPlanId, planById } from '../../shared/plans';
import type { ImageAccessGrant, UploadedImage } from '../../shared/schemas/images';
import { IMAGE_ACCESS_PARAM, MAX_IMAGE_UPLOAD_BYTES } from '../../shared/constants';
import { isUuid } from '../../shared/uuid';
import { signImageAccess, verifyImageAccess } from './access-token';
import { IMAGE_EXTENSIONS, processImage, type ImageMime } from './process';
import { findDocumentOwnerPlan, findImage, insertImageWithin } from './repository';
import type { ImageStore } from './storage';

/**
 * Images in documents: upload (re-encoded, counted against the document owner's plan), reading them back,
 * and the access tokens <img> addresses carry. Who may do what is the documents access policy's: whoever
 * may write the document may upload into it, whoever may read it may see its images; anyone else is told the
 * image does not exist.
 */

export type ImagesContext = Pick<ServerDependencies, 'config' | 'database' | 'db'> & { files: ImageStore };

/** Who asks: a signed-in user, a share-link visitor with their share token, or an <img> with an access token. */
export type ImageRequester =
  | { kind: 'user'; userId: string; sessionId: string }
  | { kind: 'share'; token: string }
  | { kind: 'access'; token: string };

const missingImage = () => notFound('Image not found', 'not_found');

export const imageTooLarge = () =>
  new AppError(
    413,
    'image_too_large',
    `This image is larger than ${MAX_IMAGE_UPLOAD_BYTES / (1024 * 1024)} MB. Make it smaller and upload it again.`,
  );

/** Whether `requester` may do `ability` to the document (the access policy, asked once). */
async function may(
  ctx: ImagesContext,
  requester: ImageRequester,
  documentId: string,
  ability: DocumentAbility,
): Promise<boolean> {
  if (!isUuid(documentId)) return false;
  if (requester.kind === 'user') {
    return can(await documentRole(ctx, { kind: 'user', userId: requester.userId }, documentId), ability);
  }
  if (requester.kind === 'share') {
    const actor = { kind: 'share' as const, token: requester.token, documentId };
    return can(await documentRole(ctx, actor, documentId), ability);
  }
  const viewer = await verifyImageAccess(ctx.config.JWT_SECRET, documentId, requester.token);
  if (!viewer) return false;
  if (viewer.kind === 'user') {
    // The token outlives nothing: a signed-out session or a lost role ends it at once.
    if (!(await isSessionSignedIn(ctx.database, viewer.userId, viewer.sessionId))) return false;
    return can(await documentRole(ctx, { kind: 'user', userId: viewer.userId }, documentId), ability);
  }
  // A visitor's token holds while the link lets visitors in as it did when it was minted (same link key,
  // password, expiry); visitors only read.
  if (ability !== 'read') return false;
  try {
    const row = await loadSharedDocument(ctx.db, documentId);
    return entryFingerprint(row) === viewer.entry;
  } catch {
    return false;
  }
}

function quotaCheck(ctx: ImagesContext, plan: string, adding: number) {
  return (storedBytes: number) => {
    if (!limitsEnforced(ctx.config)) return;
    const definition = planById(isPlanId(plan) ? plan : 'gratis');
    const limit = definition.limits.imageStorageBytes;
    if (limit === null || storedBytes + adding <= limit) return;
    const megabytes = Math.round(limit / (1024 * 1024));
    throw new AppError(
      403,
      'plan_limit',
      `This image would go past the ${megabytes} MB of image storage on the ${definition.name} plan of the ` +
        "document's owner. Remove images or upgrade the plan to add more.",
      { plan: definition.id, limit, upgradeUrl: '/#pricing' },
    );
  };
}

export async function uploadImage(
  ctx: ImagesContext,
  requester: ImageRequester,
  documentId: string,
  uploadedBy: string | null,
  input: Buffer,
): Promise<UploadedImage> {
  if (!(await may(ctx, requester, documentId, 'write'))) throw notFound('Document not found');
  const owner = await findDocumentOwnerPlan(ctx.db, documentId);
  if (!owner) throw notFound('Document not found');
  // The upload route's body limit says the same; an image from elsewhere (an import) is held to it here.
  if (input.length > MAX_IMAGE_UPLOAD_BYTES) throw imageTooLarge();
  const image = await processImage(input);
  const id = randomUUID();
  const extension = IMAGE_EXTENSIONS[image.mime];
  // The file first: a row never names a file that is not there. A refused or failed insert removes it.
  await ctx.files.write(documentId, id, extension, image.bytes);
  try {
    await insertImageWithin(
      ctx.db,
      owner.ownerId,
      {
        id,
        documentId,
        uploadedBy,
        bytes: image.bytes.length,
        mime: image.mime,
        width: image.width,
        height: image.height,
      },
      quotaCheck(ctx, owner.plan, image.bytes.length),
    );
  } catch (error) {
    await ctx.files.remove(documentId, id, extension);
    throw error;
  }
  return {
    id,
    src: imageSrc(documentId, id),
    mime: image.mime,
    width: image.width,
    height: image.height,
    bytes: image.bytes.length,
  };
}

export interface ImageFile {
  stream: Readable;
  size: number;
  mime: ImageMime;
  filename: string;
}

/** The image's bytes for whoever may read its document; anyone else: 404, as for an image that never was. */
export async function openImage(
  ctx: ImagesContext,
  requester: ImageRequester,
  documentId: string,
  imageId: string,
): Promise<ImageFile> {
  if (!isUuid(imageId) || !(await may(ctx, requester, documentId, 'read'))) throw missingImage();
  const row = await findImage(ctx.db, documentId, imageId);
  if (!row) throw missingImage();
  const mime = row.mime as ImageMime;
  const extension = IMAGE_EXTENSIONS[mime];
  const file = await ctx.files.open(documentId, imageId, extension);
  // The row may outlive its bytes (a database restored without its images).
  if (!file) throw missingImage();
  return { ...file, mime, filename: `image-${imageId.slice(0, 8)}.${extension}` };
}

/** A token for the document's <img> addresses, for whoever may read it. */
export async function imageAccessFor(
  ctx: ImagesContext,
  requester: Exclude<ImageRequester, { kind: 'access' }>,
  documentId: string,
): Promise<ImageAccessGrant> {
  if (!(await may(ctx, requester, documentId, 'read'))) throw notFound('Document not found');
  let access;
  if (requester.kind === 'user') {
    access = await signImageAccess(ctx.config.JWT_SECRET, documentId, {
      kind: 'user',
      userId: requester.userId,
      sessionId: requester.sessionId,
    });
  } else {
    const row = await loadSharedDocument(ctx.db, documentId);
    access = await signImageAccess(ctx.config.JWT_SECRET, documentId, {
      kind: 'share',
      entry: entryFingerprint(row),
    });
  }
  return { ...access, param: IMAGE_ACCESS_PARAM };
}

/**
 * An image another feature brings into a user's document (a picture of an imported Word file): the upload's
 * rules exactly (who may write the document, type read from the bytes and re-encoded, size, the owner's plan).
 */
export function storeImage(
  deps: Pick<ServerDependencies, 'config' | 'database' | 'db'>,
  store: ImageStore,
  userId: string,
  documentId: string,
  bytes: Buffer,
): Promise<UploadedImage> {
  return uploadImage(
    { ...deps, files: store },
    { kind: 'user', userId, sessionId: '' },
    documentId,
    userId,
    bytes,
  );
}
