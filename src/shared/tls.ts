// TLS for the REST and gRPC ports (config enable_tls, tls_cert, tls_key: Qdrant's
// service.enable_tls with tls.cert and tls.key) and for the internal cluster port
// (cluster.enable_tls: the same pair, and client certificates required, signed by tls_ca_cert).
// The files are checked once at start, so a missing or unreadable one stops start-up with one line
// naming it; then they are polled and a changed set is taken without a restart (REST and the
// internal port through setSecureContext, gRPC through grpc-js's file-watching certificate
// provider; a peer connection reads the files when it connects). A set that does not load (a
// half-written file) is logged and the last good one kept.

import { readFileSync, unwatchFile, watchFile } from 'node:fs';
import { createSecureContext } from 'node:tls';

/** How often the certificate files are looked at (ms). */
export const TLS_POLL_MS = 1000;

export interface TlsPair {
  cert: Buffer;
  key: Buffer;
  /** The CA that signs the peers' certificates (the internal port). */
  ca?: Buffer;
}

/** The files: a certificate, its key, and for the internal port the CA its peers' certificates are signed by. */
export interface TlsFiles {
  cert: string;
  key: string;
  ca?: string;
}

export class TlsFileError extends Error {}

interface TlsConfig {
  enable_tls: boolean;
  tls_cert?: string | undefined;
  tls_key?: string | undefined;
  tls_ca_cert?: string | undefined;
  cluster: { enable_tls: boolean };
}

/** The REST and gRPC ports' files, or null without TLS there. */
export function tlsFiles(config: TlsConfig): TlsFiles | null {
  if (!config.enable_tls || config.tls_cert === undefined || config.tls_key === undefined) return null;
  return { cert: config.tls_cert, key: config.tls_key };
}

/** The internal cluster port's files (with the CA), or null without TLS there. */
export function internalTlsFiles(config: TlsConfig): Required<TlsFiles> | null {
  if (!config.cluster.enable_tls || config.tls_cert === undefined || config.tls_key === undefined || config.tls_ca_cert === undefined) return null;
  return { cert: config.tls_cert, key: config.tls_key, ca: config.tls_ca_cert };
}

/** Reads and checks the files (a key that does not match the certificate is refused here, not at the first handshake). */
export function readTlsPair(files: TlsFiles): TlsPair {
  const read = (path: string, what: string): Buffer => {
    try {
      return readFileSync(path);
    } catch (e) {
      throw new TlsFileError(`${what} ${path}: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  const pair: TlsPair = { cert: read(files.cert, 'tls_cert (SERVICE_TLS_CERT)'), key: read(files.key, 'tls_key (SERVICE_TLS_KEY)') };
  if (files.ca !== undefined) pair.ca = read(files.ca, 'tls_ca_cert (SERVICE_TLS_CA_CERT)');
  try {
    createSecureContext(pair);
  } catch (e) {
    throw new TlsFileError(`tls_cert ${files.cert} with tls_key ${files.key}: ${e instanceof Error ? e.message : String(e)}`);
  }
  return pair;
}

/** Calls `onPair` with the pair each time either file changes and the pair loads; `onError` when it does not. Answers the stop. */
export function watchTlsPair(files: TlsFiles, onPair: (pair: TlsPair) => void, onError: (message: string) => void): () => void {
  const changed = (): void => {
    try {
      onPair(readTlsPair(files));
    } catch (e) {
      onError(e instanceof Error ? e.message : String(e));
    }
  };
  const watched = [files.cert, files.key, ...(files.ca === undefined ? [] : [files.ca])];
  for (const f of watched) watchFile(f, { interval: TLS_POLL_MS, persistent: false }, changed);
  return () => {
    for (const f of watched) unwatchFile(f, changed);
  };
}
