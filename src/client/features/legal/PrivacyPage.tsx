import { Link } from 'wouter';
import {
  DATA_REMOVAL_DAYS,
  MINIMUM_AGE_YEARS,
  PRODUCT_NAME,
  TERMS_CHANGE_NOTICE_DAYS,
} from '@shared/constants';
import { LegalLayout, type LegalSection } from './LegalLayout';

export const PRIVACY_EMAIL = 'privacy@quillwright.app';

const SECTIONS: LegalSection[] = [
  {
    id: 'what-we-collect',
    title: 'What we collect',
    body: (
      <>
        <p>We collect only what we need to run the service:</p>
        <ul>
          <li>
            <strong>Account details:</strong> your e-mail address, your name if you give one, and your
            password in hashed form. We never store or see your password itself.
          </li>
          <li>
            <strong>Your documents:</strong> titles and contents, and the times they were created and updated.
          </li>
          <li>
            <strong>Settings:</strong> your theme, editor and notification preferences.
          </li>
          <li>
            <strong>Billing records:</strong> your plan, billing period and payment status. Card details go
            straight to our card payment provider; they never reach our servers.
          </li>
          <li>
            <strong>Technical data:</strong> IP address, browser type and request times in short-lived server
            logs, used to keep the service secure and working.
          </li>
        </ul>
        <p>We do not sell your personal information, and we do not show advertising.</p>
      </>
    ),
  },
  {
    id: 'how-we-use-it',
    title: 'How we use your information',
    body: (
      <ul>
        <li>To provide the service: store, save and sync your documents and run the features you ask for.</li>
        <li>To keep your account safe: sign-in, session refresh, password resets and abuse prevention.</li>
        <li>To bill paid plans and answer refund requests.</li>
        <li>
          To send e-mail you need (password resets, receipts, security alerts) and, only if you opt in,
          product news. You can change these choices in your account settings at any time.
        </li>
      </ul>
    ),
  },
  {
    id: 'ai-features',
    title: 'AI features and AI providers',
    body: (
      <>
        <p>
          When you use an AI feature (completion, improving, rewriting, changing tone, fixing grammar,
          summarizing, outlining, alternative phrasings or analysis), <strong>the text you selected</strong>{' '}
          (and, for completion, the text just before your cursor) <strong>is sent to an AI provider</strong>{' '}
          that generates the result. Nothing is sent unless you use an AI feature.
        </p>
        <p>
          The provider processes that text to return a response under its own API terms. We record how many AI
          tokens you use so we can apply your plan&rsquo;s monthly allowance.
        </p>
        <p>
          <strong>Self-hosted installations:</strong> {PRODUCT_NAME} can be run on your own server. There, the
          person who runs the installation chooses which AI provider is used, or none at all. With no provider
          configured, AI features are switched off and no text leaves that server for AI processing.
        </p>
      </>
    ),
  },
  {
    id: 'sharing',
    title: 'Sharing and service providers',
    body: (
      <>
        <p>
          Your documents are private to you. If you create a public share link, anyone who has that link can
          open the document until you turn the link off.
        </p>
        <p>We share data only with providers that help us run the service, and only what each one needs:</p>
        <ul>
          <li>a card payment provider, for subscriptions;</li>
          <li>AI providers, for the AI features you use (see above);</li>
          <li>hosting and e-mail delivery providers.</li>
        </ul>
        <p>We may also disclose information when the law requires it.</p>
      </>
    ),
  },
  {
    id: 'retention',
    title: 'Retention and account deletion',
    body: (
      <>
        <p>
          We keep your information while your account is open. When you delete your account,{' '}
          <strong>your account and your documents are removed within {DATA_REMOVAL_DAYS} days</strong>.
        </p>
        <p>
          Records we must keep by law, such as invoices, are kept for the period the law sets and no longer.
        </p>
      </>
    ),
  },
  {
    id: 'children',
    title: 'Age requirement',
    body: (
      <p>
        You must be <strong>at least {MINIMUM_AGE_YEARS} years old</strong> to use {PRODUCT_NAME}. We do not
        knowingly collect information from children under {MINIMUM_AGE_YEARS}. If you believe a child has
        given us personal information, contact us and we will delete it.
      </p>
    ),
  },
  {
    id: 'security',
    title: 'Security',
    body: (
      <p>
        Connections are encrypted in transit, passwords are stored only as salted hashes, and sign-in sessions
        expire and are refreshed automatically. No system is perfectly secure, so please use a strong password
        of your own and tell us right away if you suspect unauthorized access.
      </p>
    ),
  },
  {
    id: 'your-rights',
    title: 'Your choices and rights',
    body: (
      <>
        <p>You can, at any time:</p>
        <ul>
          <li>see and change your profile and preferences in your account settings;</li>
          <li>export any document as PDF, Markdown, HTML or plain text;</li>
          <li>delete documents, or your whole account;</li>
          <li>ask us for a copy of the personal information we hold about you, or to correct it.</li>
        </ul>
        <p>Depending on where you live, you may have further rights; we honor them.</p>
      </>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to this policy',
    body: (
      <p>
        If we make a material change to this policy, we will tell you by e-mail or in the app at least{' '}
        {TERMS_CHANGE_NOTICE_DAYS} days before it takes effect. The date at the top shows when this page was
        last updated. Our <Link href="/terms">Terms of Service</Link> explain the rest of our agreement with
        you.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact',
    body: (
      <p>
        Questions about privacy? Write to <a href={`mailto:${PRIVACY_EMAIL}`}>{PRIVACY_EMAIL}</a>.
      </p>
    ),
  },
];

export function PrivacyPage() {
  return (
    <LegalLayout
      title="Privacy Policy"
      intro={
        <p>
          {PRODUCT_NAME} is a place to write. This policy explains, in plain language, what information we
          collect when you use it, why, who else sees it and the choices you have.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
