/** What other folders may use from versions; everything else in the folder is its own business. */
export { registerVersions } from './plugin';
export { versionRoutes } from './routes';
