/**
 * The plans Quillwright sells (docs/product-rules.md#limits). One module for the pricing section, the
 * Subscription tab, the server's limits and the AI quota. Stripe price/product ids are not here: they come
 * from the server's environment and reach the client through GET /api/plans.
 */
export const PLAN_IDS = ['gratis', 'creator', 'professional'] as const;
export type PlanId = (typeof PLAN_IDS)[number];
export type BillingPeriod = 'monthly' | 'annual';

export interface PlanDefinition {
  id: PlanId;
  name: string;
  /** USD per month when billed monthly. */
  monthlyPrice: number;
  /** USD per year when billed annually. */
  annualPrice: number;
  features: readonly string[];
  popular: boolean;
  limits: {
    /** null = unlimited */
    documents: number | null;
    /** AI tokens (input + output) per calendar month. */
    aiTokensPerMonth: number;
    /** Days automatic versions are kept (named versions and the newest one always are); null = forever. */
    versionRetentionDays: number | null;
    /** People the owner may invite to one document (members and waiting invitations); null = unlimited. */
    peoplePerDocument: number | null;
    /** People the owner may invite to one folder (members and waiting invitations); null = unlimited. */
    peoplePerFolder: number | null;
    /** Bytes of images (as stored, after re-encoding) in all of the owner's documents; null = unlimited. */
    imageStorageBytes: number | null;
  };
}

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

export const PLANS: readonly PlanDefinition[] = [
  {
    id: 'gratis',
    name: 'Gratis',
    monthlyPrice: 0,
    annualPrice: 0,
    features: ['1 workspace', '3 documents', 'Basic formatting', 'Auto-save', 'Export PDF/Word'],
    popular: false,
    limits: {
      documents: 3,
      aiTokensPerMonth: 5_000,
      versionRetentionDays: 7,
      peoplePerDocument: 2,
      peoplePerFolder: 2,
      imageStorageBytes: 100 * MIB,
    },
  },
  {
    id: 'creator',
    name: 'Creator',
    monthlyPrice: 12,
    annualPrice: 120,
    features: [
      '500 documents',
      'Basic AI assistance',
      '50K AI tokens per month',
      'Auto-save',
      'Export',
      'Advanced formatting',
    ],
    popular: true,
    limits: {
      documents: 500,
      aiTokensPerMonth: 50_000,
      versionRetentionDays: 90,
      peoplePerDocument: 10,
      peoplePerFolder: 10,
      imageStorageBytes: 5 * GIB,
    },
  },
  {
    id: 'professional',
    name: 'Professional',
    monthlyPrice: 24,
    annualPrice: 240,
    features: [
      'Unlimited documents',
      'Advanced AI assistants',
      '100K AI tokens per month',
      'Frontier model access',
      'Advanced formatting',
      'Export',
      'Advanced export controls',
      'Removal of the Quillwright badge',
    ],
    popular: false,
    limits: {
      documents: null,
      aiTokensPerMonth: 100_000,
      versionRetentionDays: null,
      peoplePerDocument: null,
      peoplePerFolder: null,
      imageStorageBytes: 50 * GIB,
    },
  },
];

const PLAN_ORDER: Record<PlanId, number> = { gratis: 0, creator: 1, professional: 2 };

export function planById(id: string): PlanDefinition {
  return PLANS.find((p) => p.id === id) ?? PLANS[0]!;
}

export function isPlanId(value: string): value is PlanId {
  return (PLAN_IDS as readonly string[]).includes(value);
}

/** True when `plan` is strictly above `than` in the order gratis < creator < professional. */
export function isHigherPlan(plan: PlanId, than: PlanId): boolean {
  return PLAN_ORDER[plan] > PLAN_ORDER[than];
}

/** The higher of two plans. */
export function maxPlan(a: PlanId, b: PlanId): PlanId {
  return PLAN_ORDER[a] >= PLAN_ORDER[b] ? a : b;
}
