// The document analysis in a Web Worker: a first pass over a long document costs tens of milliseconds (more on
// a phone), and text-readability and sentiment (with its word lists) load here, not in the editor's page.
// Started by analysis-runner.ts when the Analyze panel opens.
import { createBlockAnalyzer } from '@shared/analysis/analyze';
import type { AnalysisWorkerRequest, AnalysisWorkerResponse } from './analysis-runner';

// The project compiles against the DOM library (one program for all client code), where `self` is a Window;
// this is the part of the worker's global scope used here.
const scope = self as unknown as {
  postMessage(message: AnalysisWorkerResponse): void;
  onmessage: ((event: MessageEvent<AnalysisWorkerRequest>) => void) | null;
};

// Remembers each paragraph's findings by its text: after a keystroke only the edited paragraph is analysed.
const analyze = createBlockAnalyzer();

scope.onmessage = (event) => {
  const { id, blocks } = event.data;
  try {
    scope.postMessage({ type: 'result', id, analysis: analyze(blocks) });
  } catch (error) {
    scope.postMessage({ type: 'error', id, error: String(error) });
  }
};
