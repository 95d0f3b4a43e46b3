import { ConfigError, loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/client';
import { DataDirLockedError } from '../src/server/db/data-dir-lock';
import { ROLES, setRole, type Role } from '../src/server/accounts/roles';
import { AppError } from '../src/server/errors';
import { listUsersForAdmin, setGrantedPlan } from '../src/server/billing/admin';
import { PLAN_IDS, isPlanId } from '../src/shared/plans';

/**
 * Administration without Stripe:
 *   npm run admin -- set-plan <email> <gratis|creator|professional>
 *   npm run admin -- set-role <email> <admin|member>
 *   npm run admin -- list-users
 * It opens the same database as the server, from the same environment (DATABASE_URL, else DATA_DIR).
 * With PostgreSQL it can run beside the server. The embedded PGlite database admits one process per
 * DATA_DIR, so while the server runs on it this command refuses (the data-directory lock) and asks
 * you to stop the server first.
 */

const USAGE = `Usage:
  npm run admin -- set-plan <email> <${PLAN_IDS.join('|')}>
  npm run admin -- set-role <email> <${ROLES.join('|')}>
  npm run admin -- list-users`;

function fail(message: string, code = 1): never {
  console.error(message);
  process.exit(code);
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  if (!command || command === 'help' || command === '--help') {
    console.log(USAGE);
    return;
  }
  if (command !== 'set-plan' && command !== 'set-role' && command !== 'list-users')
    fail(`Unknown command: ${command}\n${USAGE}`, 2);
  if (command === 'set-role') {
    const [email, role] = args;
    if (!email || !role || args.length !== 2) fail(USAGE, 2);
    if (!ROLES.includes(role as Role)) fail(`Unknown role "${role}". Roles: ${ROLES.join(', ')}`, 2);
  } else if (command === 'set-plan') {
    const [email, plan] = args;
    if (!email || !plan || args.length !== 2) fail(USAGE, 2);
    if (!isPlanId(plan)) fail(`Unknown plan "${plan}". Plans: ${PLAN_IDS.join(', ')}`, 2);
  } else if (args.length > 0) {
    fail(USAGE, 2);
  }

  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    if (command === 'set-role') {
      const result = await setRole(database.db, args[0]!, args[1] as Role);
      console.log(`${result.email} is now ${result.role === 'admin' ? 'an admin' : 'a member'}.`);
    } else if (command === 'set-plan') {
      const [email, plan] = args as [string, (typeof PLAN_IDS)[number]];
      const result = await setGrantedPlan(database.db, email, plan);
      const granted = result.grantedPlan ? `granted ${result.grantedPlan}` : 'grant removed';
      console.log(`${result.email}: ${granted}; effective plan is now ${result.plan}.`);
      if (result.grantedPlan === null && result.plan !== 'gratis') {
        console.log(`(${result.email} keeps ${result.plan} through a live Stripe subscription.)`);
      }
    } else {
      const rows = await listUsersForAdmin(database.db);
      if (rows.length === 0) {
        console.log('No users.');
        return;
      }
      console.log(
        table([
          ['EMAIL', 'PLAN', 'GRANTED', 'SUBSCRIPTION', 'DOCUMENTS', 'CREATED'],
          ...rows.map((r) => [
            r.email,
            r.plan,
            r.grantedPlan ?? '-',
            r.subscription ?? '-',
            String(r.documents),
            r.createdAt.toISOString().slice(0, 10),
          ]),
        ]),
      );
    }
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof DataDirLockedError) {
    fail(
      `${error.message}\nThe embedded database admits one process at a time: stop the server, run this ` +
        'command, then start the server again (with PostgreSQL, DATABASE_URL, it can run beside the server).',
    );
  }
  if (error instanceof ConfigError || error instanceof AppError) fail(error.message);
  console.error(error);
  process.exit(1);
});
