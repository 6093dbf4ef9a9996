// `npm start`: the server on its embedded defaults, overridable by SERVICE_* variables.

import { ConfigError, loadConfig } from './config.js';
import { startServer } from './server.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`quiver: ${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  let server;
  try {
    server = await startServer(config);
  } catch (e) {
    // Settings that only start-up can check (e.g. the auth secrets) stop it the same way.
    if (e instanceof ConfigError) {
      process.stderr.write(`quiver: ${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  const stop = (signal: string): void => {
    server.app.log.info({ signal }, 'shutting down');
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        server.app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  server.ready.catch((err: unknown) => {
    server.app.log.fatal({ err }, 'engine failed to start');
    process.exit(1);
  });
}

void main();
