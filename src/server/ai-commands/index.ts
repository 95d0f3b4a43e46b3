/** What other folders may use from ai-commands; everything else in the folder is its own business. */
export { aiCommandRoutes, commandIdOf } from './routes';
export { commandToRun } from './service';
