// Runs the server until SIGTERM/SIGINT: what `npm start` and `quiver serve` both do. A bad
// setting, or a data dir held by another server, ends the process with code 2 and one line.

import { ConfigError, loadConfig, type Config } from './config.js';
import { startServer } from './server.js';

export async function runServer(load: () => Config = () => loadConfig()): Promise<void> {
  let server;
  try {
    // Settings that only start-up can check (the auth secrets, the data-dir lock) stop it the same way.
    server = await startServer(load());
  } catch (e) {
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
