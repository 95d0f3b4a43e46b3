/** What other folders may use from people; everything else in the folder is its own business. */
export { peopleRoutes } from './routes';
