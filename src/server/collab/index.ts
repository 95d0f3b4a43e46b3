/** What other folders may use from collab; everything else in the folder is its own business. */
export { registerCollaboration } from './collab-plugin';
export { repairLiveContent, yDocToContent } from './content';
