#!/usr/bin/env node
// The `quiver` command. Server commands talk to --url with --api-key (or QUIVER_URL /
// QUIVER_API_KEY) through Quiver's own client; backup and restore work on files; serve runs the
// server in this process. Errors print `quiver: message` on stderr and exit 1.

import { Command, InvalidArgumentError, Option } from 'commander';
import { QuiverClient, QuiverClientError } from '../client/index.js';
import { createRequire } from 'node:module';
import type { FileConfig } from '../main/config.js';
import { CliError, withRetry } from './common.js';
import type { ScopeEntryBody } from '../shared/schemas/auth.js';

// Each command loads what it needs when it runs (the server's modules, LMDB, the CSV parser):
// a CLI that answers --help or lists collections should start in a blink.
// dist/src/cli/index.js -> package.json
const VERSION = (createRequire(import.meta.url)('../../../package.json') as { version: string }).version;

const say = (s: string): void => void process.stderr.write(`${s}\n`);
const print = (v: unknown): void => void process.stdout.write(`${typeof v === 'string' ? v : JSON.stringify(v, null, 2)}\n`);

function int(name: string): (v: string) => number {
  return (v) => {
    if (!/^\d+$/.test(v)) throw new InvalidArgumentError(`${name} must be a non-negative integer`);
    return Number(v);
  };
}

/** --scope's JSON: a list of entries, or null; the server checks the entries themselves. */
function scopeArg(v: string): ScopeEntryBody[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(v);
  } catch {
    throw new InvalidArgumentError('--scope must be JSON: a list of {collection, permission, filter?}, or null');
  }
  if (parsed !== null && !Array.isArray(parsed)) throw new InvalidArgumentError('--scope must be a list of {collection, permission, filter?}, or null');
  return parsed as ScopeEntryBody[] | null;
}

const program = new Command('quiver')
  .description("Quiver: a vector database server speaking Qdrant's API, and the tools around it")
  .version(VERSION)
  .addOption(new Option('--url <url>', 'REST URL of the server').env('QUIVER_URL').default('http://127.0.0.1:6573'))
  .addOption(new Option('--api-key <key>', 'API key or admin JWT (sent as the api-key header)').env('QUIVER_API_KEY'))
  .showHelpAfterError()
  .configureOutput({ outputError: (s, write) => write(s.startsWith('error:') ? `quiver: ${s.slice(7)}` : s) });

function client(cmd: Command): QuiverClient {
  const o = cmd.optsWithGlobals<{ url: string; apiKey?: string }>();
  return new QuiverClient({ url: o.url, ...(o.apiKey === undefined ? {} : { apiKey: o.apiKey }) });
}

/** Runs a command body; a failure becomes one line on stderr and exit code 1. */
function act<A extends unknown[]>(body: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await body(...args);
    } catch (e) {
      const url = program.opts<{ url: string }>().url;
      const msg =
        e instanceof CliError
          ? e.message
          : e instanceof QuiverClientError
            ? `the server answered ${e.status}: ${e.message}`
            : e instanceof TypeError && e.message === 'fetch failed'
              ? `cannot reach ${url} (${(e.cause as { code?: string } | undefined)?.code ?? String(e.cause)})`
              : e instanceof Error
                ? e.message
                : String(e);
      say(`quiver: ${msg}`);
      process.exit(1);
    }
  };
}

program
  .command('serve')
  .description('run the server (as npm start); flags override SERVICE_* variables, which override config/default.json')
  .option('--host <host>', 'address to listen on (SERVICE_HOST)')
  .option('--rest-port <port>', 'REST port, 0 for any free one (SERVICE_REST_PORT)', int('--rest-port'))
  .option('--grpc-port <port>', 'gRPC port (SERVICE_GRPC_PORT)', int('--grpc-port'))
  .option('--data-dir <dir>', 'data directory (SERVICE_DATA_DIR)')
  .option('--shards <n>', 'worker threads, 0 for one per core (SERVICE_SHARDS)', int('--shards'))
  .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent (SERVICE_LOG_LEVEL)')
  .option('--config <file>', 'a JSON config file (SERVICE_CONFIG)')
  .action(async (o: { host?: string; restPort?: number; grpcPort?: number; dataDir?: string; shards?: number; logLevel?: string; config?: string }) => {
    const overrides: Partial<Record<keyof FileConfig, unknown>> = {};
    const flags: Partial<Record<keyof FileConfig, string>> = {
      host: '--host',
      rest_port: '--rest-port',
      grpc_port: '--grpc-port',
      data_dir: '--data-dir',
      shards: '--shards',
      log_level: '--log-level',
    };
    if (o.host !== undefined) overrides.host = o.host;
    if (o.restPort !== undefined) overrides.rest_port = o.restPort;
    if (o.grpcPort !== undefined) overrides.grpc_port = o.grpcPort;
    if (o.dataDir !== undefined) overrides.data_dir = o.dataDir;
    if (o.shards !== undefined) overrides.shards = o.shards;
    if (o.logLevel !== undefined) overrides.log_level = o.logLevel;
    const env = o.config === undefined ? process.env : { ...process.env, SERVICE_CONFIG: o.config };
    // Loaded here only: the other commands need none of the server's modules.
    const [{ runServer }, { loadConfig }] = await Promise.all([import('../main/run.js'), import('../main/config.js')]);
    // loadConfig validates the merged values, so a bad flag is reported like a bad variable.
    await runServer(() => loadConfig(env, overrides as Partial<FileConfig>, flags));
  });

program
  .command('import')
  .description('upsert the points of a JSONL/NDJSON or CSV file, in batches, resuming an interrupted import')
  .argument('<file>', 'points, one {"id", "vector", "payload"} per line (or CSV with columns id,vector,payload)')
  .requiredOption('-c, --collection <name>', 'target collection')
  .option('--format <format>', 'jsonl, ndjson or csv (default: from the file name)')
  .option('--batch-size <n>', 'points per upsert', int('--batch-size'), 256)
  .option('--create', 'create the collection if it does not exist, sized by the first vector')
  .option('--distance <distance>', 'distance of a collection made by --create: Cosine, Dot, Euclid or Manhattan', 'Cosine')
  .option('--state <path>', 'where to keep resume state (default: FILE.quiver-import.json)')
  .option('--restart', 'ignore saved resume state and start from the first line')
  .action(
    act(async (file: string, o: { collection: string; format?: string; batchSize: number; create?: boolean; distance: string; state?: string; restart?: boolean }, cmd: Command) => {
      const { runImport } = await import('./import.js');
      await runImport(
        client(cmd),
        file,
        {
          collection: o.collection,
          batchSize: o.batchSize,
          create: o.create === true,
          distance: o.distance,
          restart: o.restart === true,
          ...(o.format === undefined ? {} : { format: o.format }),
          ...(o.state === undefined ? {} : { state: o.state }),
        },
        say,
      );
    }),
  );

program
  .command('export')
  .description('write every point of a collection as JSONL or CSV (stdout when no FILE)')
  .argument('[file]', 'output file; .csv writes CSV')
  .requiredOption('-c, --collection <name>', 'collection to export')
  .option('--format <format>', 'jsonl, ndjson or csv (default: from the file name, else jsonl)')
  .option('--batch-size <n>', 'points per scroll page', int('--batch-size'), 256)
  .action(
    act(async (file: string | undefined, o: { collection: string; format?: string; batchSize: number }, cmd: Command) => {
      const { runExport } = await import('./export.js');
      await runExport(client(cmd), file, { collection: o.collection, batchSize: o.batchSize, ...(o.format === undefined ? {} : { format: o.format }) }, say);
    }),
  );

program
  .command('backup')
  .description("copy a data dir's database consistently, while its server runs, into one file")
  .argument('<data-dir>', 'the server data dir (SERVICE_DATA_DIR)')
  .argument('<file>', 'backup file to write')
  .action(act(async (dataDir: string, file: string) => (await import('./backup.js')).runBackup(dataDir, file, say)));

program
  .command('restore')
  .description('put a backup file back as a data dir (refuses a non-empty dir without --force)')
  .argument('<file>', 'backup file written by quiver backup')
  .argument('<data-dir>', 'data dir to create')
  .option('--force', "replace a non-empty data dir's contents")
  .action(act(async (file: string, dataDir: string, o: { force?: boolean }) => (await import('./backup.js')).runRestore(file, dataDir, o.force === true, say)));

program
  .command('collections')
  .description('list the collections, one name a line')
  .action(
    act(async (_o: unknown, cmd: Command) => {
      const { collections } = await withRetry(() => client(cmd).listCollections());
      for (const c of collections) print(c.name);
    }),
  );

program
  .command('info')
  .description("a collection's status, point count and configuration (JSON)")
  .argument('<name>', 'collection')
  .action(act(async (name: string, _o: unknown, cmd: Command) => print(await withRetry(() => client(cmd).getCollection(name)))));

program
  .command('login')
  .description('print an admin JWT, for --api-key / QUIVER_API_KEY')
  .addOption(new Option('--password <password>', 'the admin password').env('QUIVER_ADMIN_PASSWORD').makeOptionMandatory())
  .action(
    act(async (o: { password: string }, cmd: Command) => {
      print((await client(cmd).login(o.password)).token);
    }),
  );

const keys = program.command('keys').description('API keys (needs an admin credential)');
keys
  .command('create')
  .description('create an API key; the key is printed once')
  .requiredOption('--name <name>', 'a name for the key')
  .option('--description <text>', 'free text')
  .option('--permission <set>', 'comma-separated read, write, admin (with --scope: the rights outside its collections; default none)')
  .option('--scope <json>', 'limit the key to collections: [{"collection": "docs" or "logs_*", "permission": "read,write", "filter": {...tenant filter}}]', scopeArg)
  .option('--expires-in <seconds>', 'lifetime in seconds (default: no expiry)', int('--expires-in'))
  .action(
    act(async (o: { name: string; description?: string; permission?: string; scope?: ScopeEntryBody[]; expiresIn?: number }, cmd: Command) => {
      print(
        await client(cmd).createApiKey({
          name: o.name,
          // Without a scope, a key reads unless told otherwise, as before scopes.
          ...(o.permission !== undefined ? { permission: o.permission } : o.scope === undefined ? { permission: 'read' } : {}),
          ...(o.scope === undefined ? {} : { scope: o.scope }),
          ...(o.description === undefined ? {} : { description: o.description }),
          ...(o.expiresIn === undefined ? {} : { will_expire: true, expires_in_seconds: o.expiresIn }),
        }),
      );
    }),
  );
keys
  .command('update')
  .description("change a key's name, description, permission or scope; the key itself stays")
  .argument('<id>', 'key id (from keys list)', int('id'))
  .option('--name <name>', 'a new name')
  .option('--description <text>', 'a new description')
  .option('--permission <set>', 'comma-separated read, write, admin')
  .option('--scope <json>', 'the new scope (as keys create), or null for every collection', scopeArg)
  .action(
    act(async (id: number, o: { name?: string; description?: string; permission?: string; scope?: ScopeEntryBody[] | null }, cmd: Command) => {
      print(await client(cmd).updateApiKey(id, o));
    }),
  );
keys
  .command('list')
  .description('list API keys (never the keys themselves)')
  .action(act(async (_o: unknown, cmd: Command) => print(await client(cmd).listApiKeys())));
keys
  .command('delete')
  .description('delete an API key by id; it stops working at once')
  .argument('<id>', 'key id (from keys list)', int('id'))
  .action(
    act(async (id: number, _o: unknown, cmd: Command) => {
      say((await client(cmd).deleteApiKey(id)).message);
    }),
  );

// `quiver export | head` closes the pipe early: that ends the command quietly, as for cat.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

await program.parseAsync(process.argv);
