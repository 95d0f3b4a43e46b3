/** What other folders may use from export; everything else in the folder is its own business. */
export { exportRoutes } from './routes';
export { exportDocument } from './service';
