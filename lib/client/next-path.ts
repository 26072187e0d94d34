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
 */

const UNSAFE = /[\\\u0000-\u001f\u007f]/;

export function safeNextPath(next: string | null, origin: string): string {
  if (next === null || UNSAFE.test(next) || !next.startsWith('/') || next.startsWith('//')) return '/';
  let url: URL;
  try {
    url = new URL(next, origin);
  } catch {
    return '/';
  }
  return url.origin === origin ? `${url.pathname}${url.search}${url.hash}` : '/';
}
