// Type declarations for the two analysis libraries, which ship no types of their own.
declare module 'text-readability' {
  interface Readability {
    fleschReadingEase(text: string): number;
    fleschKincaidGrade(text: string): number;
    sentenceCount(text: string): number;
    lexiconCount(text: string, removePunctuation?: boolean): number;
    syllableCount(text: string, lang?: string): number;
    difficultWords(text: string, syllableThreshold?: number): number;
    averageSentenceLength(text: string): number;
  }
  const readability: Readability;
  export default readability;
}

declare module 'sentiment' {
  interface SentimentResult {
    score: number;
    comparative: number;
    tokens: string[];
    words: string[];
    positive: string[];
    negative: string[];
  }
  class Sentiment {
    analyze(phrase: string): SentimentResult;
  }
  export default Sentiment;
}
