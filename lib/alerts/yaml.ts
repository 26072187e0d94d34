/**
 * A small YAML writer for the files we generate (Prometheus rules and their
 * promtool tests, the Alertmanager config): block mappings and sequences,
 * strings double-quoted as JSON (a subset of YAML's double-quoted scalars),
 * multi-line strings as literal blocks (PromQL reads as written).
 *
 * Guarantees: pure; the output parses back to the same value in any YAML
 * 1.1/1.2 parser (keys that are not plain identifiers are quoted; every
 * string is quoted or a literal block, so `on`, `no` or `1e3` stay strings);
 * `undefined` members are left out.
 * Non-guarantees: no anchors, tags or flow style; non-finite numbers throw.
 */

export type YamlValue = string | number | boolean | null | readonly YamlValue[] | { readonly [key: string]: YamlValue | undefined };

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

function key(k: string): string {
  return PLAIN_KEY.test(k) ? k : JSON.stringify(k);
}

/** A literal block keeps the text exactly when no line has trailing blanks or tabs and the first line does not start with a blank. */
function literalBlockOk(s: string): boolean {
  return s.includes('\n') && !s.startsWith(' ') && !/[ \t]\n|[ \t]$|\t|\r/.test(s) && !s.endsWith('\n\n') && !s.startsWith('\n');
}

function scalar(value: string | number | boolean | null, indent: string): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`yaml: cannot write ${value}`);
    return String(value);
  }
  if (literalBlockOk(value)) {
    const body = value.endsWith('\n') ? value.slice(0, -1) : value;
    const chomp = value.endsWith('\n') ? '|' : '|-';
    return `${chomp}\n${body
      .split('\n')
      .map((line) => (line === '' ? '' : `${indent}  ${line}`))
      .join('\n')}`;
  }
  return JSON.stringify(value);
}

function isCollection(v: YamlValue): v is readonly YamlValue[] | { readonly [key: string]: YamlValue | undefined } {
  return typeof v === 'object' && v !== null;
}

function emptyCollection(v: YamlValue): string | null {
  if (Array.isArray(v)) return v.length === 0 ? '[]' : null;
  if (isCollection(v)) return Object.values(v).some((x) => x !== undefined) ? null : '{}';
  return null;
}

function lines(value: YamlValue, indent: string): string[] {
  if (Array.isArray(value)) {
    return (value as readonly YamlValue[]).flatMap((item) => {
      const empty = emptyCollection(item);
      if (!isCollection(item) || empty !== null) return [`${indent}- ${empty ?? scalar(item as string | number | boolean | null, `${indent}  `)}`];
      const inner = lines(item, `${indent}  `);
      // The first line of a nested block goes on the dash's line.
      return [`${indent}- ${inner[0]!.slice(indent.length + 2)}`, ...inner.slice(1)];
    });
  }
  if (isCollection(value)) {
    return Object.entries(value).flatMap(([k, v]) => {
      if (v === undefined) return [];
      const empty = emptyCollection(v);
      if (!isCollection(v) || empty !== null) return [`${indent}${key(k)}: ${empty ?? scalar(v as string | number | boolean | null, indent)}`];
      return [`${indent}${key(k)}:`, ...lines(v, `${indent}  `)];
    });
  }
  return [`${indent}${scalar(value, indent)}`];
}

/** The document, with optional `# comment` lines on top. */
export function toYaml(value: YamlValue, comment?: string): string {
  const head = comment
    ? `${comment
        .split('\n')
        .map((l) => (l ? `# ${l}` : '#'))
        .join('\n')}\n`
    : '';
  return `${head}${lines(value, '').join('\n')}\n`;
}
