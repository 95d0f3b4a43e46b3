/** What other folders may use from admin; everything else in the folder is its own business. */
export { adminAiRoutes } from './ai-settings-routes';
