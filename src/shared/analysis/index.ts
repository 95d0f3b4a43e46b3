export * from './result';
export {
  analyzeBlocks,
  createBlockAnalyzer,
  plainTextBlocks,
  safeAnalyze,
  type BlockAnalyzer,
} from './analyze';
export { analyzeText } from './response';
export { countWords, readingTimeMinutes, splitSentences } from './text';
