/** What other folders may use from imports; everything else in the folder is its own business. */
export { importRoutes } from './import-routes';
export { convertFile } from './import-service';
