import { z } from 'zod';
import { DEFAULT_ALTERNATIVES_COUNT } from '../constants';

/** Largest text (characters) any AI call accepts; longer → 413 text_too_large. */
export const AI_MAX_TEXT_CHARS = 20_000;
/** Most alternatives one call may ask for. */
const AI_MAX_ALTERNATIVES = 5;

// `text` is checked for emptiness and size by the server (400 / 413) after parsing, so it is a plain string here.
// Unknown keys (such as the old client's `userId`) are stripped: the user always comes from the token.
const text = z.string({ error: 'text is required' });
const documentId = z.uuid().optional();

export const aiTextRequestSchema = z.object({ text, documentId });
export const aiCompleteRequestSchema = z.object({ text, context: z.string().optional(), documentId });
export const aiRewriteRequestSchema = z.object({
  text,
  style: z.string({ error: 'style is required' }),
  prompt: z.string().max(2_000).optional(),
  documentId,
});
export const aiToneRequestSchema = z.object({
  text,
  tone: z.string({ error: 'tone is required' }),
  description: z.string().max(2_000).optional(),
  documentId,
});
export const aiAlternativesRequestSchema = z.object({
  text,
  count: z.coerce.number().int().min(1).max(AI_MAX_ALTERNATIVES).default(DEFAULT_ALTERNATIVES_COUNT),
  documentId,
});
export const aiAnalyzeRequestSchema = z.object({ text, type: z.string().optional(), documentId });
export const aiOutlineRequestSchema = z
  .object({ topic: z.string().optional(), text: z.string().optional(), documentId })
  .refine((v) => v.topic !== undefined || v.text !== undefined, { message: 'topic is required' });

/** POST /api/ai/suggestions, stored form (suggestion card). */
export const aiStoreSuggestionRequestSchema = z.object({
  documentId: z.uuid(),
  originalText: z.string().max(100_000),
  suggestedText: z.string().max(100_000),
  type: z.string().min(1).max(50).default('improvement'),
});
/** POST /api/ai/suggestions, rewrite-dialog form: generate alternatives. */
export const aiRewritingSuggestionsRequestSchema = z.object({
  text,
  type: z.literal('rewriting'),
  count: z.coerce.number().int().min(1).max(AI_MAX_ALTERNATIVES).default(DEFAULT_ALTERNATIVES_COUNT),
  documentId,
});
export const aiUpdateSuggestionRequestSchema = z.object({ accepted: z.boolean() });

export type AiProviderId = 'openai' | 'anthropic';

export interface AiUsageNumbers {
  inputTokens: number;
  outputTokens: number;
}

/** Fields every generative answer carries besides its own result field. */
export interface AiGenerationMeta {
  provider: AiProviderId | 'extractive';
  model: string;
  usage: AiUsageNumbers;
}

export interface AiSuggestion {
  id: string;
  documentId: string;
  originalText: string;
  suggestedText: string;
  type: string;
  accepted: boolean | null;
  createdAt: string;
}

export interface GrammarChange {
  /** UTF-16 offset into the submitted text (JavaScript string index). */
  offset: number;
  length: number;
  original: string;
  replacement: string;
  message: string;
  kind: string;
}

export interface GrammarResponse {
  correctedText: string;
  changes: GrammarChange[];
  /** Same list as `changes`: clients read either name, so the answer carries both. */
  corrections: GrammarChange[];
  result: { correctedText: string; corrections: GrammarChange[] };
}

interface AnalysisDetails {
  readability: {
    /** 0–10, higher is easier (Flesch reading ease / 10). */
    score: number;
    fleschReadingEase: number;
    gradeLevel: number;
    label: string;
  };
  sentiment: { score: number; comparative: number; label: 'positive' | 'neutral' | 'negative' };
  improvements: string[];
  wordCount: number;
  charCount: number;
  sentenceCount: number;
  readingTime: number;
}

export interface AnalysisResponse {
  readabilityScore: number;
  suggestions: string[];
  wordCount: number;
  estimatedReadingTime: number;
  analysis: AnalysisDetails;
}

/** GET /api/ai/health: `openai`/`anthropic` mean "a provider of that family answered within the last 60 s". */
export interface AiHealth {
  openai: boolean;
  anthropic: boolean;
  providers: {
    id: string;
    kind: 'openai-compatible' | 'anthropic';
    reachable: boolean;
    latency_ms: number | null;
    checked_at: string | null;
  }[];
}

export interface AiUsageSummary {
  plan: string;
  used: number;
  limit: number;
  remaining: number;
  /** Whether the limit is enforced (billing enabled or ENFORCE_PLAN_LIMITS). */
  enforced: boolean;
  /** No limit applies to this user (an admin, with "Admins unlimited" and no billing). */
  unlimited: boolean;
  periodStart: string;
  periodEnd: string;
}
