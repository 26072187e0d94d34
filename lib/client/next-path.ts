/**
 * Where to go after signing in (`/login?next=…`): only a path of this
 * dashboard, never another origin — an open redirect after a real sign-in
 * sends the operator wherever the link's author chose.
 *
 * The check is the browser's own: the value is resolved against the page's
 * origin and must land on it. Before that, backslashes and control characters
 * are refused outright: browsers read `\` as `/` and drop tabs and newlines,
 * so `/\evil.example/x` and `/<TAB>/evil.example/x` (what `?next=/%5Cevil…`
 * and `?next=/%09/evil…` decode to) become `//evil.example/x`. Pure; the
 * origin is an argument. Anything refused falls back to `/`.
 *
 * The login page resolves `next` on the server too (`nextPathOnServer`), so the
 * HTML carries only the path the browser will go to (`data-next` on the form):
 * the same answer, since a value that passes the checks before `new URL` is a
 * path, which lands on whatever origin it is resolved against.
 */

const UNSAFE = /[\\\u0000-\u001f\u007f]/;

/** One pass of the check: the path the value resolves to on `origin`, or null. */
function resolvedOnce(next: string, origin: string): string | null {
  if (UNSAFE.test(next) || !next.startsWith('/') || next.startsWith('//')) return null;
  let url: URL;
  try {
    url = new URL(next, origin);
  } catch {
    return null;
  }
  return url.origin === origin ? `${url.pathname}${url.search}${url.hash}` : null;
}

/** Enough passes for any value a URL parser leaves unstable; one that is still changing after them is refused. */
const MAX_PASSES = 8;

/**
 * The check is repeated on its own answer until the answer no longer changes:
 * one pass can turn a path into another origin's (`/.//evil.example` resolves
 * to the path `//evil.example`, which a browser reads as a host), so only a
 * value that is its own answer is kept.
 */
export function safeNextPath(next: string | null, origin: string): string {
  let current = next;
  for (let pass = 0; pass < MAX_PASSES && current !== null; pass++) {
    const resolved = resolvedOnce(current, origin);
    if (resolved === current) return resolved;
    current = resolved;
  }
  return '/';
}

/** Any origin will do for the server's check: a path lands on the origin it is resolved against, whichever it is. */
const SERVER_SIDE_ORIGIN = 'http://leaseboard.invalid';

export function nextPathOnServer(next: string | null): string {
  return safeNextPath(next, SERVER_SIDE_ORIGIN);
}
