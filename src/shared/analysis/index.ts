export * from './result';
export { analyzeBlocks, createBlockAnalyzer, plainTextBlocks, safeAnalyze } from './analyze';
export { analyzeText } from './response';
export { countWords, readingTimeMinutes } from './text';
