import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../db/client';
import { runMigrations } from '../db/migrate';

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * A database with every migration applied, made once per test run: the PGlite project gets the path of a
     * dumped data directory, the PostgreSQL project the name of a template database. Each test database starts
     * as a copy of it instead of running initdb and the migrations again (most of a test server's start-up).
     */
    migratedTemplate: string;
  }
}

/** Runs once per server project before its test files; the returned function runs after them. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (project.config.env.QW_TEST_DB === 'postgres') return postgresTemplate(project);
  return pgliteTemplate(project);
}

async function pgliteTemplate(project: TestProject): Promise<() => Promise<void>> {
  const folder = mkdtempSync(path.join(tmpdir(), 'qw-template-'));
  const file = path.join(folder, 'pglite.tar');
  const client = await PGlite.create('memory://');
  try {
    await runMigrations(async (sql, params) =>
      params?.length
        ? (await client.query(sql, params as unknown[])).rows
        : ((await client.exec(sql)).at(-1)?.rows ?? []),
    );
    const dump = await client.dumpDataDir('none');
    writeFileSync(file, new Uint8Array(await dump.arrayBuffer()));
  } finally {
    await client.close();
  }
  project.provide('migratedTemplate', file);
  return async () => rmSync(folder, { recursive: true, force: true });
}

async function postgresTemplate(project: TestProject): Promise<() => Promise<void>> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('the server-postgres project needs TEST_DATABASE_URL');
  const name = `qw_template_${process.pid}_${randomBytes(4).toString('hex')}`;
  await adminQuery(adminUrl, `create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  // Migrated, then closed: PostgreSQL copies a template only while nobody is connected to it.
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
  await database.close();
  project.provide('migratedTemplate', name);
  return async () => adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
}

async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}
