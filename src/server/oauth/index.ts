/** What other folders may use from oauth; everything else in the folder is its own business. */
export { allowBrowserClients } from './cors';
export { oauthApiRoutes, oauthRoutes, protectedResourceMetadataUrl } from './routes';
