import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { E2E_DATA_DIR, E2E_PORT } from './env';

/**
 * The server the browser tests talk to: the real app on a fresh embedded database. Local stand-ins for
 * outside services (AI provider, Stripe) are started here too when the tests need them.
 */
rmSync(E2E_DATA_DIR, { recursive: true, force: true });

const server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    PORT: String(E2E_PORT),
    HOST: '127.0.0.1',
    DATA_DIR: E2E_DATA_DIR,
    APP_URL: `http://127.0.0.1:${E2E_PORT}`,
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
  },
});
const stop = () => server.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
server.on('exit', (code) => process.exit(code ?? 0));
