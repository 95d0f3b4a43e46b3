import pg from 'pg';
const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/test' });
await admin.connect();
await admin.query('drop database if exists qw_i20_probe with (force)');
await admin.query('create database qw_i20_probe');
await admin.end();
