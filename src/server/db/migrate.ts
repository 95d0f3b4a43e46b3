import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type SqlRunner = (sql: string, params?: readonly unknown[]) => Promise<unknown[]>;

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
// Any constant works; it only has to be the same for every instance so concurrent starts take turns.
const MIGRATION_LOCK_KEY = 7_413_521;

/**
 * Applies `migrations/NNNN_name.sql` in file-name order, each once, each in its own transaction.
 * Plain numbered SQL files (rather than drizzle-kit's journal) let each domain add its migration
 * without touching a shared journal; `db/schema/*.ts` mirrors them for typed queries.
 */
export async function runMigrations(exec: SqlRunner): Promise<string[]> {
  const files = readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{4}_.+\.sql$/.test(f))
    .sort();
  await exec(`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
  const applied: string[] = [];
  try {
    await exec(
      'create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())',
    );
    const rows = (await exec('select name from schema_migrations')) as { name: string }[];
    const done = new Set(rows.map((r) => r.name));
    for (const file of files) {
      if (done.has(file)) continue;
      const body = readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8');
      await exec(`begin;\n${body}\n;insert into schema_migrations (name) values ('${file}');\ncommit;`);
      applied.push(file);
    }
  } catch (error) {
    await exec('rollback').catch(() => {});
    throw error;
  } finally {
    await exec(`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`);
  }
  return applied;
}
