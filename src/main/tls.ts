// TLS for the REST and gRPC ports (config enable_tls, tls_cert, tls_key: Qdrant's
// service.enable_tls with tls.cert and tls.key). The files are checked once at start, so a
// missing or unreadable one stops start-up with one line naming it; then they are polled and a
// changed pair is taken by both ports without a restart (REST through setSecureContext, gRPC
// through grpc-js's file-watching certificate provider), so a renewed certificate needs no
// restart. A pair that does not load (a half-written file) is logged and the last good one kept.

import { readFileSync, unwatchFile, watchFile } from 'node:fs';
import { createSecureContext } from 'node:tls';
import type { Config } from './config.js';

/** How often the certificate files are looked at (ms). */
export const TLS_POLL_MS = 1000;

export interface TlsPair {
  cert: Buffer;
  key: Buffer;
}

export class TlsFileError extends Error {}

/** The configured files, or null without TLS. */
export function tlsFiles(config: Pick<Config, 'enable_tls' | 'tls_cert' | 'tls_key'>): { cert: string; key: string } | null {
  if (!config.enable_tls || config.tls_cert === undefined || config.tls_key === undefined) return null;
  return { cert: config.tls_cert, key: config.tls_key };
}

/** Reads and checks the pair (a key that does not match the certificate is refused here, not at the first handshake). */
export function readTlsPair(files: { cert: string; key: string }): TlsPair {
  const read = (path: string, what: string): Buffer => {
    try {
      return readFileSync(path);
    } catch (e) {
      throw new TlsFileError(`${what} ${path}: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  const pair = { cert: read(files.cert, 'tls_cert (SERVICE_TLS_CERT)'), key: read(files.key, 'tls_key (SERVICE_TLS_KEY)') };
  try {
    createSecureContext(pair);
  } catch (e) {
    throw new TlsFileError(`tls_cert ${files.cert} with tls_key ${files.key}: ${e instanceof Error ? e.message : String(e)}`);
  }
  return pair;
}

/** Calls `onPair` with the pair each time either file changes and the pair loads; `onError` when it does not. Answers the stop. */
export function watchTlsPair(files: { cert: string; key: string }, onPair: (pair: TlsPair) => void, onError: (message: string) => void): () => void {
  const changed = (): void => {
    try {
      onPair(readTlsPair(files));
    } catch (e) {
      onError(e instanceof Error ? e.message : String(e));
    }
  };
  for (const f of [files.cert, files.key]) watchFile(f, { interval: TLS_POLL_MS, persistent: false }, changed);
  return () => {
    for (const f of [files.cert, files.key]) unwatchFile(f, changed);
  };
}
