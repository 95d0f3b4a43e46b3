/** What other folders may use from health; everything else in the folder is its own business. */
export { healthRoutes } from './routes';
