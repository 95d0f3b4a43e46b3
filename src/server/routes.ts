import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { adminAiRoutes } from './admin';
import { aiRoutes } from './ai';
import { aiCommandRoutes } from './ai-commands';
import { aiChatRoutes } from './ai-chat';
import { apiTokenRoutes, registerApiTokenGate } from './api-tokens';
import { authRoutes } from './accounts';
import { billingRoutes } from './billing';
import { memberCommentRoutes, sharedCommentRoutes } from './comments';
import { documentRoutes, pinRoutes, trashRoutes, type MarkdownConversion } from './documents';
import { compileRoutes } from './compile';
import { exportDocument, exportRoutes } from './export';
import { documentFolderRoutes, folderRoutes, folderTrashRoutes } from './folders';
import { folderGoalRoutes, goalRoutes } from './goals';
import { healthRoutes } from './health';
import { imageRoutes } from './images';
import { convertFile, importRoutes } from './imports';
import { notificationRoutes } from './notifications';
import { oauthApiRoutes } from './oauth';
import { openApiRoutes } from './openapi';
import { peopleRoutes } from './people';
import { searchRoutes } from './search';
import { settingsRoutes } from './settings';
import { sharingRoutes } from './sharing';
import { templateRoutes } from './templates';
import { versionRoutes } from './versions';

/**
 * Markdown for the document routes: the export's Markdown (the same text as a .md export) and the import's parser
 * (in an import worker, as a .md file import).
 */
function markdownConversion(app: FastifyInstance): MarkdownConversion {
  return {
    toMarkdown: async (title, content) => String((await exportDocument(title, content, 'md')).body),
    toDocument: async (markdown, owner) =>
      (
        await convertFile('document.md', Buffer.from(markdown, 'utf8'), {
          owner,
          whole: true,
          metrics: app.deps.metrics,
        })
      ).content,
  };
}

/** Every API route group, mounted under /api. */
export const registerRoutes: FastifyPluginAsync = async (app) => {
  // First, so that every route below is behind it: personal API tokens are checked before any route runs.
  registerApiTokenGate(app);
  await app.register(healthRoutes);
  await app.register(openApiRoutes);
  await app.register(authRoutes, { prefix: '/auth' });
  await app.register(documentRoutes, { prefix: '/documents', markdown: markdownConversion(app) });
  await app.register(versionRoutes, { prefix: '/documents' });
  await app.register(pinRoutes, { prefix: '/documents' });
  await app.register(goalRoutes, { prefix: '/documents' });
  await app.register(importRoutes, { prefix: '/documents/import' });
  await app.register(documentFolderRoutes, { prefix: '/documents' });
  await app.register(trashRoutes, { prefix: '/trash' });
  await app.register(folderTrashRoutes, { prefix: '/trash/folders' });
  await app.register(folderRoutes, { prefix: '/folders' });
  await app.register(folderGoalRoutes, { prefix: '/folders' });
  await app.register(templateRoutes, { prefix: '/templates' });
  await app.register(searchRoutes, { prefix: '/search' });
  await app.register(settingsRoutes, { prefix: '/me' });
  await app.register(aiRoutes, { prefix: '/ai' });
  await app.register(aiCommandRoutes, { prefix: '/ai/commands' });
  await app.register(aiChatRoutes, { prefix: '/ai/chat' });
  await app.register(billingRoutes);
  await app.register(sharingRoutes);
  await app.register(peopleRoutes);
  await app.register(memberCommentRoutes);
  await app.register(sharedCommentRoutes);
  await app.register(notificationRoutes);
  await app.register(imageRoutes);
  await app.register(exportRoutes);
  await app.register(compileRoutes);
  await app.register(adminAiRoutes, { prefix: '/admin' });
  await app.register(apiTokenRoutes);
  await app.register(oauthApiRoutes);
};
