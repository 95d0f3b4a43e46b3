/** What other folders may use from settings; everything else in the folder is its own business. */
export { settingsRoutes } from './routes';
export { getUserSettings } from './service';
