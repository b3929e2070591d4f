/**
 * Passwords are hashed with argon2id (the library's default algorithm) at its default cost
 * (19 MiB, 2 passes: OWASP's minimum for argon2id), and stored as the PHC string.
 */
export async function hashPassword(password: string): Promise<string> {
  // Imported on first use: a process that never checks a password never loads the native
  // library (~5 MB of RSS).
  const { hash } = await import("@node-rs/argon2");
  return hash(password);
}

let decoy: Promise<string> | null = null;

/**
 * Checks a password against a stored hash. With no hash (unknown email, invitation not yet
 * accepted) a decoy hash is verified instead, so the answer takes as long either way and the
 * timing does not tell which emails have users.
 */
export async function passwordMatches(stored: string | null, password: string): Promise<boolean> {
  const { hash, verify } = await import("@node-rs/argon2");
  if (stored === null) {
    decoy ??= hash("decoy password that matches nothing");
    await verify(await decoy, password);
    return false;
  }
  return verify(stored, password);
}
