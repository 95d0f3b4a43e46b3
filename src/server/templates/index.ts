/** What other folders may use from templates; everything else in the folder is its own business. */
export { templateRoutes } from './routes';
