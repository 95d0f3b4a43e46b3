/** What other folders may use from sharing; everything else in the folder is its own business. */
export { sharingRoutes } from './routes';
export { isCurrentLinkKey, linkKeyFromQuery } from './service';
