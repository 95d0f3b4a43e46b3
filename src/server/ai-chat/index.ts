/** What other folders may use from ai-chat; everything else in the folder is its own business. */
export { aiChatRoutes, chatDocumentIdOf } from './routes';
export { chatPrompt, keepExchange } from './service';
