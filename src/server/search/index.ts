/** What other folders may use from search; everything else in the folder is its own business. */
export { searchRoutes } from './search-routes';
export { library, search } from './search-service';
