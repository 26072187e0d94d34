/**
 * YAML for the files we generate (Prometheus rules and their promtool tests,
 * the Alertmanager config), written by the `yaml` package (eemeli/yaml, YAML
 * 1.2) with one fixed style, so the committed copies stay byte-stable under
 * their drift test:
 * - block mappings and sequences (sequences indented under their key);
 * - every string double-quoted (so `on`, `no` or `1e3` stay strings in any
 *   1.1 or 1.2 parser), except multi-line strings, written as literal blocks
 *   (PromQL reads as written) whenever a literal block keeps them exactly;
 * - no line folding; `undefined` members left out; `# comment` lines on top.
 *
 * Guarantees: pure; the output parses back (with `yaml`'s own parser, or any
 * YAML parser) to the same value. Non-finite numbers throw.
 * Non-guarantees: no anchors, tags or flow style except `[]` and `{}`.
 */
import { Document, Scalar, visit } from 'yaml';

export type YamlValue = string | number | boolean | null | readonly YamlValue[] | { readonly [key: string]: YamlValue | undefined };

/** A literal block keeps the text exactly when no line has trailing blanks, there are no tabs or CRs, and it neither starts with a blank or newline nor ends with two newlines. */
function literalBlockOk(s: string): boolean {
  return s.includes('\n') && !s.startsWith(' ') && !s.startsWith('\n') && !/[ \t]\n|[ \t]$|\t|\r/.test(s) && !s.endsWith('\n\n');
}

function checkNumbers(value: YamlValue | undefined): void {
  if (typeof value === 'number' && !Number.isFinite(value)) throw new TypeError(`yaml: cannot write ${value}`);
  if (Array.isArray(value)) for (const item of value as readonly YamlValue[]) checkNumbers(item);
  else if (typeof value === 'object' && value !== null) for (const item of Object.values(value)) checkNumbers(item);
}

/** The document, with optional `# comment` lines on top. */
export function toYaml(value: YamlValue, comment?: string): string {
  checkNumbers(value);
  const doc = new Document(value, { keepUndefined: false });
  visit(doc, {
    Scalar(key, node) {
      if (typeof node.value !== 'string') return;
      // Keys stay plain (ours are identifiers); string values are quoted or literal blocks.
      if (key === 'key') node.type = Scalar.PLAIN;
      else node.type = literalBlockOk(node.value) ? Scalar.BLOCK_LITERAL : Scalar.QUOTE_DOUBLE;
    },
  });
  // On the top node, not the document: no blank line between the comment and the content.
  if (comment && doc.contents) doc.contents.commentBefore = comment;
  const text = doc.toString({
    lineWidth: 0,
    indentSeq: true,
    doubleQuotedAsJSON: true,
    flowCollectionPadding: false,
    commentString: (text) =>
      text
        .split('\n')
        .map((line) => (line ? `# ${line}` : '#'))
        .join('\n'),
  });
  return text;
}
