// Admin login (POST /auth/login) apart from the auth state: the failed-login limit per client
// address, and the password check, which takes as long for an unknown user or a missing admin
// as for a wrong password (a dummy argon2id hash stands in). AuthService.doLogin reads the admin
// between the two steps and signs the JWT after them.

import { randomUUID } from 'node:crypto';
import type { AdminRecord } from '../../shared/db.js';
import { QuiverError } from '../../shared/errors.js';
import { unauthorized } from './context.js';
import { ADMIN_USERNAME } from './jwt.js';
import { hashPassword, verifyPassword } from './password.js';
import { LoginLimiter } from './rate-limit.js';

/** Failed logins allowed per client address and window before 429. */
export const LOGIN_MAX_FAILURES = 10;
export const LOGIN_WINDOW_MS = 60_000;

const BAD_LOGIN = 'Invalid username or password';

export interface LoginResult {
  token: string;
  token_type: 'Bearer';
  expires_in: number;
}

/** 429 for too many failed logins; carries the Retry-After seconds. */
export class RateLimitedError extends QuiverError {
  constructor(retryAfterSeconds: number) {
    super('RateLimited', `Too many failed login attempts from this address; retry in ${retryAfterSeconds} s`, retryAfterSeconds);
  }
}

export class LoginGate {
  readonly #limiter: LoginLimiter;
  #dummyHash: Promise<string> | null = null;

  constructor(loginLimit: { maxFailures: number; windowMs: number } | undefined) {
    this.#limiter = new LoginLimiter({
      maxFailures: loginLimit?.maxFailures ?? LOGIN_MAX_FAILURES,
      windowMs: loginLimit?.windowMs ?? LOGIN_WINDOW_MS,
    });
  }

  /**
   * Counts the attempt against the address up front (so parallel guesses count too); past the
   * limit the answer is 429 before any hashing.
   */
  async admit(address: string): Promise<void> {
    const wait = await this.#limiter.attempt(address);
    if (wait > 0) throw new RateLimitedError(wait);
  }

  /** The admin when the username and password are right (a success clears the address); 401 otherwise. */
  async verify(address: string, admin: AdminRecord | null, username: string, password: string): Promise<AdminRecord> {
    const hash = admin?.password_hash ?? (await this.#dummy());
    const passwordOk = await verifyPassword(hash, password);
    if (!passwordOk || admin === null || username !== ADMIN_USERNAME) throw unauthorized(BAD_LOGIN);
    await this.#limiter.succeed(address);
    return admin;
  }

  #dummy(): Promise<string> {
    this.#dummyHash ??= hashPassword(randomUUID());
    return this.#dummyHash;
  }
}
