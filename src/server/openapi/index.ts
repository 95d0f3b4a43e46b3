/** What other folders may use from openapi; everything else in the folder is its own business. */
export { openApiRoutes } from './routes';
