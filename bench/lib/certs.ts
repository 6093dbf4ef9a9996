// Certificates made with Debian's openssl, for the TLS test and `npm run bench:tls`: a CA, and
// server certificates for 127.0.0.1 signed by it (EC P-256, a day long), each with its own serial.

import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const OPENSSL = ['/usr/bin/openssl', '/bin/openssl'].find((p) => existsSync(p)) ?? null;

function openssl(dir: string, ...args: string[]): void {
  execFileSync(OPENSSL!, args, { cwd: dir, stdio: 'pipe' });
}

/** A CA in `dir`: ca.pem (the certificate clients trust) and ca.key. */
export function makeCa(dir: string): string {
  openssl(dir, 'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=quiver-test-ca');
  return join(dir, 'ca.pem');
}

/** A server certificate for 127.0.0.1 signed by the CA in `dir`, written to <name>.pem and <name>.key; answers its serial (hex, upper case). */
export function makeServerCert(dir: string, name: string, serial: string): { cert: string; key: string; serial: string } {
  writeFileSync(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1\n');
  openssl(dir, 'req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', '/CN=127.0.0.1');
  openssl(dir, 'x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-set_serial', `0x${serial}`, '-out', `${name}.pem`, '-days', '1', '-extfile', 'san.ext');
  return { cert: join(dir, `${name}.pem`), key: join(dir, `${name}.key`), serial: serial.toUpperCase() };
}
