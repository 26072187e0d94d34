/**
 * Every relative link and anchor in README.md and docs/ resolves: a moved
 * section or a renamed heading fails here, not for the reader who follows it.
 * Links are read from the parsed Markdown (code blocks and inline code are not
 * links), anchors are GitHub's heading slugs (github-slugger, duplicates
 * numbered as GitHub numbers them).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import GithubSlugger from 'github-slugger';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { toString } from 'mdast-util-to-string';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '..');

type Node = { type: string; url?: string; depth?: number; children?: Node[] };

function markdownFiles(): string[] {
  const inDocs = (dir: string): string[] =>
    readdirSync(path.join(ROOT, dir)).flatMap((name) => {
      const relative = path.join(dir, name);
      if (statSync(path.join(ROOT, relative)).isDirectory()) return inDocs(relative);
      return name.endsWith('.md') ? [relative] : [];
    });
  return ['README.md', ...inDocs('docs')];
}

function walk(node: Node, visit: (node: Node) => void): void {
  visit(node);
  for (const child of node.children ?? []) walk(child, visit);
}

const parsed = new Map<string, Node>();

/** Each file is parsed once: a page with many links into one file would otherwise parse it per link. */
function parse(file: string): Node {
  let tree = parsed.get(file);
  if (tree === undefined) {
    tree = fromMarkdown(readFileSync(path.join(ROOT, file), 'utf8')) as Node;
    parsed.set(file, tree);
  }
  return tree;
}

const anchorSets = new Map<string, Set<string>>();

/** The anchors GitHub gives a file's headings. */
function anchorsOf(file: string): Set<string> {
  const known = anchorSets.get(file);
  if (known) return known;
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  walk(parse(file), (node) => {
    if (node.type === 'heading') anchors.add(slugger.slug(toString(node)));
  });
  anchorSets.set(file, anchors);
  return anchors;
}

/** Each relative link of a file: image sources and link targets alike. */
function relativeLinks(file: string): string[] {
  const links: string[] = [];
  walk(parse(file), (node) => {
    if ((node.type === 'link' || node.type === 'image') && node.url && !/^[a-z][a-z0-9+.-]*:/i.test(node.url)) links.push(node.url);
  });
  return links;
}

/** Why a link does not resolve, or null when it does. */
function brokenBecause(from: string, link: string): string | null {
  const [target, anchor] = link.split('#', 2) as [string, string | undefined];
  const file = target === '' ? from : path.normalize(path.join(path.dirname(from), decodeURIComponent(target)));
  if (file.startsWith('..') || !existsSync(path.join(ROOT, file))) return `${file} does not exist`;
  if (anchor === undefined || anchor === '') return null;
  if (!file.endsWith('.md')) return `an anchor into ${file}, which is not Markdown`;
  return anchorsOf(file).has(decodeURIComponent(anchor)) ? null : `${file} has no heading #${anchor}`;
}

describe('links in README.md and docs/', () => {
  const files = markdownFiles();

  it('finds the README and the docs, and links in them', () => {
    expect(files).toContain('README.md');
    expect(files.length).toBeGreaterThan(5);
    expect(files.flatMap(relativeLinks).length).toBeGreaterThan(20);
  });

  it.each(files)('%s: every relative link and anchor resolves', (file) => {
    const broken = relativeLinks(file).flatMap((link) => {
      const why = brokenBecause(file, link);
      return why === null ? [] : [`${link}: ${why}`];
    });
    expect(broken).toEqual([]);
  });

  it('refuses what is broken (the check can fail)', () => {
    expect(brokenBecause('README.md', 'docs/no-such-page.md')).toMatch(/does not exist/);
    expect(brokenBecause('README.md', '#no-such-heading')).toMatch(/no heading/);
    expect(brokenBecause('docs/alerts.md', '../README.md#quick-start')).toBeNull();
  });

  it('keeps the README a guide: at most 300 lines', () => {
    expect(readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(300);
  });
});
