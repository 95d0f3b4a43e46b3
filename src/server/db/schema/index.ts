// Every table of the app. Each domain keeps its tables in its own file; add new files here.
export * from './accounts';
export * from './documents';
export * from './billing';
export * from './ai';
export * from './settings';
export * from './versions';
export * from './ai-settings';
export * from './folders';
export * from './api-tokens';
export * from './members';
export * from './library';
export * from './goals';
export * from './images';
export * from './oauth';
export * from './comments';
export * from './idempotency';
export * from './notifications';
