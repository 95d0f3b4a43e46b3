/** What other folders may use from compile; everything else in the folder is its own business. */
export { compileRoutes } from './routes';
export { compileBook } from './service';
