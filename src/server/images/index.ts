/** What other folders may use from images; everything else in the folder is its own business. */
export { registerImages } from './plugin';
export { imageRoutes } from './routes';
