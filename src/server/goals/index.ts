/** What other folders may use from goals; everything else in the folder is its own business. */
export { registerGoals } from './plugin';
export { folderGoalRoutes, goalRoutes } from './routes';
