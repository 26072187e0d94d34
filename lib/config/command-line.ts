/**
 * Secrets do not belong on command lines: every user of the machine reads
 * them (`ps`, /proc/PID/cmdline), and shells keep them in their history. The
 * commands that take a URL refuse one with a password in it, saying where
 * the secret goes instead; the message never repeats the URL.
 *
 * Pure.
 */

/** Whether `raw` is a URL with a password in it. */
function hasUrlPassword(raw: string): boolean {
  try {
    return new URL(raw).password !== '';
  } catch {
    return false;
  }
}

/** The refusal for `flag`'s value when it is a URL with a password, or null. `instead`: where the secret goes. */
export function urlPasswordRefusal(flag: string, raw: string, instead: string): string | null {
  if (!hasUrlPassword(raw)) return null;
  return `${flag}: a password inside a URL on the command line is visible to every user of this machine (ps) and kept in shell history; ${instead}`;
}
