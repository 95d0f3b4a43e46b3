/**
 * The eight rewrite styles and six tone options, shared by the rewrite dialog and the server's prompts.
 * `icon` names a lucide-react icon; `color` is a Tailwind colour family the dialog uses for the chip.
 */

export type RewriteStyleId =
  'clarity' | 'concise' | 'expand' | 'professional' | 'casual' | 'persuasive' | 'academic' | 'creative';

export interface RewriteStyle {
  id: RewriteStyleId;
  name: string;
  description: string;
  icon: string;
  /** The instruction given to the model (see prompts.ts). */
  prompt: string;
  color: string;
}

export const REWRITE_STYLES: readonly RewriteStyle[] = [
  {
    id: 'clarity',
    name: 'Improve Clarity',
    description: 'Make the text clearer and easier to understand',
    icon: 'Eye',
    prompt:
      'Rewrite the text so it is clearer and easier to understand. Keep the meaning, simplify convoluted sentences and remove ambiguity.',
    color: 'blue',
  },
  {
    id: 'concise',
    name: 'Make Concise',
    description: 'Shorten the text while keeping the key points',
    icon: 'Scissors',
    prompt:
      'Rewrite the text to be concise. Remove redundancy and filler words while keeping every key point.',
    color: 'green',
  },
  {
    id: 'expand',
    name: 'Expand Content',
    description: 'Add detail, examples and explanation',
    icon: 'Maximize2',
    prompt:
      'Expand the text with more detail, examples and explanation, keeping the original meaning and voice.',
    color: 'purple',
  },
  {
    id: 'professional',
    name: 'Professional',
    description: 'Formal tone suited to business writing',
    icon: 'Briefcase',
    prompt: 'Rewrite the text in a professional, formal tone suited to business communication.',
    color: 'slate',
  },
  {
    id: 'casual',
    name: 'Casual',
    description: 'Relaxed, conversational and friendly',
    icon: 'Coffee',
    prompt: 'Rewrite the text in a casual, conversational tone, as if talking to a friend.',
    color: 'orange',
  },
  {
    id: 'persuasive',
    name: 'Persuasive',
    description: 'Compelling and convincing',
    icon: 'Megaphone',
    prompt:
      'Rewrite the text to be persuasive and compelling, with strong arguments and a clear call to action where it fits.',
    color: 'red',
  },
  {
    id: 'academic',
    name: 'Academic',
    description: 'Scholarly, precise and objective',
    icon: 'GraduationCap',
    prompt:
      'Rewrite the text in an academic style: precise, objective and scholarly, with formal vocabulary.',
    color: 'indigo',
  },
  {
    id: 'creative',
    name: 'Creative',
    description: 'Vivid, imaginative and engaging',
    icon: 'Sparkles',
    prompt: 'Rewrite the text creatively, with vivid imagery, varied rhythm and engaging language.',
    color: 'pink',
  },
];

export type ToneId =
  'professional' | 'friendly' | 'authoritative' | 'empathetic' | 'enthusiastic' | 'informative';

export interface ToneOption {
  id: ToneId;
  name: string;
  description: string;
  example: string;
}

export const TONE_OPTIONS: readonly ToneOption[] = [
  {
    id: 'professional',
    name: 'Professional',
    description: 'Formal, polished and businesslike',
    example: 'We appreciate your patience while we resolve this matter.',
  },
  {
    id: 'friendly',
    name: 'Friendly',
    description: 'Warm, approachable and personal',
    example: 'Thanks so much for hanging in there with us!',
  },
  {
    id: 'authoritative',
    name: 'Authoritative',
    description: 'Confident, expert and decisive',
    example: 'This approach is the most effective way to solve the problem.',
  },
  {
    id: 'empathetic',
    name: 'Empathetic',
    description: 'Understanding, caring and supportive',
    example: 'We understand how frustrating this must be for you.',
  },
  {
    id: 'enthusiastic',
    name: 'Enthusiastic',
    description: 'Energetic, excited and upbeat',
    example: "We're thrilled to share this amazing news with you!",
  },
  {
    id: 'informative',
    name: 'Informative',
    description: 'Clear, factual and educational',
    example: 'The update includes three changes that improve load times.',
  },
];

export function findRewriteStyle(id: string): RewriteStyle | undefined {
  return REWRITE_STYLES.find((s) => s.id === id);
}

export function findToneOption(id: string): ToneOption | undefined {
  return TONE_OPTIONS.find((t) => t.id === id);
}
