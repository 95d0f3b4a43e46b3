/** What other folders may use from mcp; everything else in the folder is its own business. */
export { mcpRoutes } from './routes';
