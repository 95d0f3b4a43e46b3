import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { openDatabase } from '../src/server/db/client';
import { users } from '../src/server/db/schema';
import { hashPassword } from '../src/server/accounts/passwords';
import { startFakeOpenAI } from '../src/server/test/fake-openai';
import { startFakeStripe } from '../src/server/test/fake-stripe';
import { CHAT_SYSTEM_INTRO } from '../src/shared/ai/prompts';
import { ensureBuild } from '../scripts/ensure-build';
import { E2E_ADMIN, E2E_DATA_DIR, E2E_PORT } from './env';

/**
 * The server the browser tests talk to: the real app, compiled as `npm start` runs it (dist/server, rebuilt here
 * when its sources changed), on a fresh embedded database. Local stand-ins for outside services (AI provider,
 * Stripe) are started here too when the tests need them.
 */
await ensureBuild();
rmSync(E2E_DATA_DIR, { recursive: true, force: true });

// The instance admin, created in the database (sign-up only makes members; every test's own account is one).
// The database is closed again before the server opens it.
{
  const database = await openDatabase({ dataDir: E2E_DATA_DIR });
  await database.db.insert(users).values({
    email: E2E_ADMIN.email,
    passwordHash: await hashPassword(E2E_ADMIN.password),
    fullName: 'E2E Admin',
    emailConfirmedAt: new Date(),
    role: 'admin',
  });
  await database.close();
}

// Billing: the Stripe stand-in on a free loopback port; the server sends Stripe API calls there and
// the stand-in's checkout page sends signed webhooks back. With billing on, plan limits apply (a Gratis
// user may own 3 documents).
const E2E_STRIPE_PRICES = {
  STRIPE_PRICE_CREATOR_MONTHLY: 'price_e2e_creator_monthly',
  STRIPE_PRICE_CREATOR_ANNUAL: 'price_e2e_creator_annual',
  STRIPE_PRICE_PROFESSIONAL_MONTHLY: 'price_e2e_professional_monthly',
  STRIPE_PRICE_PROFESSIONAL_ANNUAL: 'price_e2e_professional_annual',
};
const fakeStripe = await startFakeStripe({
  prices: Object.values(E2E_STRIPE_PRICES),
  webhookUrl: `http://127.0.0.1:${E2E_PORT}/api/stripe/webhook`,
});

/** The passage e2e/chat.e2e.ts types into its second paragraph, and what a chat "shorten" request makes of it. */
const CHAT_E2E_PASSAGE = 'rambles on and on about the weather for far too long';
const CHAT_E2E_REPLACEMENT = 'is brief';

/**
 * Chat with the document: a question gets Markdown (bold and a list); a message asking to "shorten" gets
 * prose plus an edits block replacing CHAT_E2E_PASSAGE. Only the new message (<question>) decides, not
 * the conversation before it.
 */
function chatAnswer(messages: { role?: string; content?: unknown }[]): string[] {
  const user = String(messages.findLast((m) => m.role === 'user')?.content ?? '');
  const question = /<question>\n([\s\S]*?)\n<\/question>/.exec(user)?.[1] ?? '';
  if (/shorten/i.test(question)) {
    const edits = JSON.stringify([{ find: CHAT_E2E_PASSAGE, replace: CHAT_E2E_REPLACEMENT }]);
    return ['I shortened ', 'the second paragraph.\n\n', '```edits\n', edits, '\n```'];
  }
  return ['The **weakest** ', 'argument is the weather:\n\n', '- it rambles\n', '- it repeats itself'];
}

// AI: an OpenAI-compatible stand-in on a loopback port (answers "The improved text." unless asked for a list).
const answerLikeTheProduct = (body: { messages?: { role?: string; content?: unknown }[] }) => {
  if (String(body?.messages?.[0]?.content ?? '').startsWith(CHAT_SYSTEM_INTRO))
    return chatAnswer(body.messages ?? []);
  const prompt = JSON.stringify(body?.messages ?? []);
  if (/alternative phrasings|Rephrase the text/.test(prompt))
    return ['1. First alternative.\n', '2. Second alternative.\n', '3. Third alternative.'];
  // A writer's own command (Settings → AI commands).
  if (prompt.includes("The writer's instruction")) return ['Ahoy, ', 'the garden ', 'be ours.'];
  return ['The ', 'improved ', 'text.'];
};
const fakeOpenAI = await startFakeOpenAI({ tokenDelayMs: 20 });
fakeOpenAI.answerWith(answerLikeTheProduct);

// A "local model server" (as Ollama would be) for the AI settings tests: found by detection through
// AI_LOCAL_SERVERS. It answers like the other one, except text that asks for it, so that a test can tell
// which server answered while other tests, running meanwhile, see no difference.
const fakeLocalModels = await startFakeOpenAI({ tokenDelayMs: 20 });
fakeLocalModels.models = ['llama3.2:3b'];
fakeLocalModels.answerWith((body: { messages?: { content?: unknown }[] }) =>
  JSON.stringify(body?.messages ?? []).includes('via the local model')
    ? ['Locally ', 'improved.']
    : answerLikeTheProduct(body),
);

const server = spawn(process.execPath, ['dist/server/main.js'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    PORT: String(E2E_PORT),
    HOST: '127.0.0.1',
    DATA_DIR: E2E_DATA_DIR,
    APP_URL: `http://127.0.0.1:${E2E_PORT}`,
    LOG_LEVEL: 'warn',
    // Each browser test presents its own client address (X-Forwarded-For, see e2e/fixtures.ts) so the per-IP
    // auth rate limits of a real deployment stay on without parallel tests sharing one budget.
    TRUST_PROXY: 'true',
    DATABASE_URL: '',
    OPENAI_API_KEY: 'sk-e2e',
    OPENAI_BASE_URL: fakeOpenAI.baseUrl,
    OPENAI_MODEL: 'e2e-model',
    AI_LOCAL_SERVERS: fakeLocalModels.baseUrl,
    ANTHROPIC_API_KEY: '',
    STRIPE_SECRET_KEY: fakeStripe.apiKey,
    STRIPE_WEBHOOK_SECRET: fakeStripe.webhookSecret,
    STRIPE_API_BASE: fakeStripe.url,
    ...E2E_STRIPE_PRICES,
  },
});
const stop = () => {
  server.kill('SIGTERM');
  void fakeStripe.close();
  void fakeOpenAI.close();
  void fakeLocalModels.close();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
server.on('exit', (code) => {
  void Promise.all([fakeStripe.close(), fakeOpenAI.close(), fakeLocalModels.close()]).finally(() =>
    process.exit(code ?? 0),
  );
});
