// The admin password: the policy of docs/decisions.md section 3 and argon2id hashing with OWASP's
// parameters (Password Storage Cheat Sheet: m = 19 MiB, t = 2, p = 1). Hashing runs on libuv's
// thread pool, so the event loop keeps serving while a login is checked. Passwords are never
// logged and never stored, only their PHC-format hashes.

import { argon2id, hash, verify } from 'argon2';

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 256;

export const PASSWORD_RULE =
  `Password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters long and contain at least three of: ` +
  'lowercase letters, uppercase letters, digits, symbols';

const HASH_OPTIONS = { type: argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** True when the password satisfies the policy. Length counts characters (code points), not bytes. */
export function meetsPasswordPolicy(password: string): boolean {
  const length = [...password].length;
  if (length < PASSWORD_MIN || length > PASSWORD_MAX) return false;
  const classes = [/\p{Ll}/u, /\p{Lu}/u, /\p{Nd}/u, /[^\p{L}\p{N}]/u].filter((re) => re.test(password)).length;
  return classes >= 3;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, HASH_OPTIONS);
}

/** False for a wrong password and for a malformed hash; never throws on either. */
export async function verifyPassword(digest: string, password: string): Promise<boolean> {
  try {
    return await verify(digest, password);
  } catch {
    return false;
  }
}
