export { CompileDialog } from './CompileDialog';
