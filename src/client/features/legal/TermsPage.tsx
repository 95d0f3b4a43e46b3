import { Link } from 'wouter';
import {
  DATA_REMOVAL_DAYS,
  MINIMUM_AGE_YEARS,
  MONEY_BACK_GUARANTEE_DAYS,
  PRODUCT_NAME,
  TERMS_CHANGE_NOTICE_DAYS,
  UPTIME_TARGET_PERCENT,
} from '@shared/constants';
import { PLANS, type PlanDefinition } from '@shared/plans';
import { LegalLayout, type LegalSection } from './LegalLayout';

export const SUPPORT_EMAIL = 'support@quillwright.app';

const tokens = new Intl.NumberFormat('en-US');

/** "Basic formatting" → "basic formatting", but "PDF export" stays. */
function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;
}

/**
 * Tiers are described from PLANS, the same data as the pricing section and the server's limits, so the
 * terms can never promise something the product does not do (docs/decisions.md, "Terms page tiers").
 */
function tierSummary(plan: PlanDefinition): string {
  const price =
    plan.monthlyPrice === 0 ? 'free' : `$${plan.monthlyPrice} per month or $${plan.annualPrice} per year`;
  const documents =
    plan.limits.documents === null ? 'unlimited documents' : `up to ${plan.limits.documents} documents`;
  const rest = plan.features.filter((f) => !/documents|AI tokens/i.test(f)).map(lowerFirst);
  return `${price}; ${documents}; ${tokens.format(plan.limits.aiTokensPerMonth)} AI tokens per month; ${rest.join(', ')}.`;
}

const SECTIONS: LegalSection[] = [
  {
    id: 'agreement',
    title: 'The agreement',
    body: (
      <p>
        These terms are an agreement between you and {PRODUCT_NAME} about your use of the hosted service. By
        creating an account or using the service you accept them. Please also read our{' '}
        <Link href="/privacy">Privacy Policy</Link>, which explains how we handle your information.
      </p>
    ),
  },
  {
    id: 'eligibility',
    title: 'Who can use the service',
    body: (
      <p>
        You must be <strong>at least {MINIMUM_AGE_YEARS} years old</strong>. If you are under the age of
        majority where you live, a parent or guardian must agree to these terms for you. You are responsible
        for keeping your password safe and for what happens under your account.
      </p>
    ),
  },
  {
    id: 'your-content',
    title: 'Your content',
    body: (
      <>
        <p>
          <strong>You own what you write.</strong> You give us permission to store, copy and process your
          documents only as needed to run the service for you: saving, syncing, exporting, sharing when you
          ask, and AI features when you use them.
        </p>
        <p>
          When you create a public share link, anyone with the link can open that document. You can turn a
          link off at any time.
        </p>
      </>
    ),
  },
  {
    id: 'ai',
    title: 'AI features',
    body: (
      <>
        <p>
          AI features send the text you select to an AI provider to generate a result (see the{' '}
          <Link href="/privacy">Privacy Policy</Link>). On a self-hosted installation, its operator chooses
          the provider, or none.
        </p>
        <p>
          AI output can be wrong, incomplete or similar to text written by others. Review it before you rely
          on or publish it; you are responsible for what you publish.
        </p>
      </>
    ),
  },
  {
    id: 'plans',
    title: 'Plans, billing and refunds',
    body: (
      <>
        <p>{PRODUCT_NAME} offers these plans:</p>
        <ul>
          {PLANS.map((plan) => (
            <li key={plan.id}>
              <strong>{plan.name}:</strong> {tierSummary(plan)}
            </li>
          ))}
        </ul>
        <p>
          Paid plans are billed in advance, monthly or annually, through our card payment provider, and renew
          automatically until you cancel. When you cancel, your plan stays active until the end of the period
          you paid for. The monthly AI token allowance resets at the start of each calendar month.
        </p>
        <p>
          <strong>{MONEY_BACK_GUARANTEE_DAYS}-day money-back guarantee:</strong> if a paid plan is not right
          for you, ask for a refund within {MONEY_BACK_GUARANTEE_DAYS} days of your first payment for it and
          we will refund that payment in full.
        </p>
        <p>
          We will give you at least <strong>{TERMS_CHANGE_NOTICE_DAYS} days&rsquo; notice</strong> before any
          price change affects you, so you can cancel first if you wish.
        </p>
      </>
    ),
  },
  {
    id: 'acceptable-use',
    title: 'Acceptable use',
    body: (
      <>
        <p>Please do not use {PRODUCT_NAME} to:</p>
        <ul>
          <li>break the law or infringe other people&rsquo;s rights;</li>
          <li>share malware, spam or content that exploits or harms others;</li>
          <li>probe, overload or get around the limits and security of the service;</li>
          <li>resell the service or its AI features without our written permission.</li>
        </ul>
        <p>
          We may remove content or suspend accounts that break these rules, and will tell you why when we can.
        </p>
      </>
    ),
  },
  {
    id: 'availability',
    title: 'Availability',
    body: (
      <p>
        We aim for <strong>{UPTIME_TARGET_PERCENT}% uptime</strong> each month. This is a target, not a
        guarantee: maintenance, outages of providers we depend on and events outside our control can interrupt
        the service. Autosave protects your work, and you can export your documents at any time.
      </p>
    ),
  },
  {
    id: 'ending',
    title: 'Ending your account',
    body: (
      <p>
        You can stop using {PRODUCT_NAME} and delete your account at any time. After deletion your data is
        removed within {DATA_REMOVAL_DAYS} days. We may close accounts that seriously or repeatedly break
        these terms; where possible we will warn you first and give you time to export your documents.
      </p>
    ),
  },
  {
    id: 'liability',
    title: 'Disclaimers and liability',
    body: (
      <p>
        The service is provided &ldquo;as is&rdquo;. To the extent the law allows, we are not liable for
        indirect or consequential losses, and our total liability for any claim is limited to the amount you
        paid us in the twelve months before it. Nothing here limits rights you have as a consumer that cannot
        be limited by contract.
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to these terms',
    body: (
      <p>
        We will tell you about material changes to these terms at least {TERMS_CHANGE_NOTICE_DAYS} days before
        they take effect, by e-mail or in the app. If you keep using the service after that, the new terms
        apply.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact',
    body: (
      <p>
        Questions about these terms, billing or refunds? Write to{' '}
        <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>.
      </p>
    ),
  },
];

export function TermsPage() {
  return (
    <LegalLayout
      title="Terms of Service"
      intro={
        <p>
          These terms explain what you can expect from {PRODUCT_NAME} and what we expect from you. We have
          kept them as short and plain as we can.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
