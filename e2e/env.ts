import path from 'node:path';

/** Shared by playwright.config.ts, the e2e server and the tests (each process evaluates this file). */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
/** Override with E2E_DATA_DIR to run several e2e servers at once (each needs its own embedded database). */
export const E2E_DATA_DIR = path.resolve(process.env.E2E_DATA_DIR ?? 'test-results/e2e-data');

/** The instance admin e2e/serve.ts creates before the server starts (every account signed up later is a member). */
export const E2E_ADMIN = { email: 'admin@e2e.test', password: 'e2e-admin-passphrase-2026' } as const;
