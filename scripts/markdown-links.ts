/**
 * The relative links of the repository's Markdown files, and which of them lead nowhere: a file
 * that does not exist, or a `#fragment` that is no heading of its target as GitHub names it.
 * Links to other sites are not followed. Checked by markdown-links.spec.ts.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Folders that hold no documentation of ours: dependencies, builds, test and bench output. */
const SKIPPED = new Set(['node_modules', 'dist', 'test-output', 'coverage', 'data', '.git']);
const SKIPPED_PATHS = new Set(['bench/results']);

/** A link that leads nowhere: where it is, what it says, and why. */
export interface BrokenLink {
  file: string;
  line: number;
  target: string;
  problem: string;
}

/** Every `*.md` under `root` (relative paths, sorted), outside the skipped folders. */
export function markdownFiles(root: string, under = ''): string[] {
  return readdirSync(join(root, under), { withFileTypes: true })
    .flatMap((entry) => {
      const path = under === '' ? entry.name : `${under}/${entry.name}`;
      if (entry.isDirectory()) {
        return SKIPPED.has(entry.name) || SKIPPED_PATHS.has(path) ? [] : markdownFiles(root, path);
      }
      return entry.isFile() && entry.name.endsWith('.md') ? [path] : [];
    })
    .sort();
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
export function githubSlug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link's text stays, its target goes
    .replace(/<[^>]+>/g, '') // inline HTML
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** Each line of a Markdown text outside fenced code blocks, with its number (from 1). */
function proseLines(text: string): { line: number; content: string }[] {
  const lines: { line: number; content: string }[] = [];
  let fence: string | undefined;
  text.split('\n').forEach((content, index) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(content)?.[1];
    if (marker !== undefined && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      return;
    }
    if (fence === undefined) lines.push({ line: index + 1, content });
  });
  return lines;
}

/** The anchors a Markdown text offers: its headings' slugs (repeats numbered) and `id`s. */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { content } of proseLines(text)) {
    for (const [, id] of content.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id);
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(content)?.[1];
    if (heading === undefined) continue;
    const slug = githubSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The link targets of a Markdown text with their lines: inline links, images, definitions. */
export function linksOf(text: string): { line: number; target: string }[] {
  const links: { line: number; target: string }[] = [];
  for (const { line, content } of proseLines(text)) {
    const prose = content.replace(/(`+)[^`]*?\1/g, ''); // code spans hold no links
    for (const [, target] of prose.matchAll(/\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ line, target });
    }
    const definition = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$/.exec(prose)?.[1];
    if (definition !== undefined) links.push({ line, target: definition });
  }
  return links;
}

const isExternal = (target: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** The relative links of the Markdown files under `root` that lead nowhere. */
export function brokenLinks(root: string): BrokenLink[] {
  const anchorCache = new Map<string, Set<string>>();
  const anchorsAt = (path: string) => {
    if (!anchorCache.has(path)) anchorCache.set(path, anchorsOf(readFileSync(path, 'utf8')));
    return anchorCache.get(path)!;
  };
  return markdownFiles(root).flatMap((file) => {
    const source = resolve(root, file);
    return linksOf(readFileSync(source, 'utf8')).flatMap(({ line, target }): BrokenLink[] => {
      if (target === '' || isExternal(target)) return [];
      const [path, fragment] = target.split('#', 2);
      const destination = path === '' ? source : resolve(dirname(source), decodeURI(path));
      const broken = (problem: string) => [{ file, line, target, problem }];
      if (!existsSync(destination)) {
        return broken(`no such file: ${relative(root, destination)}`);
      }
      if (fragment === undefined || fragment === '') return [];
      if (statSync(destination).isDirectory() || !destination.endsWith('.md')) {
        return broken('a #fragment of something that is not a Markdown file');
      }
      return anchorsAt(destination).has(decodeURIComponent(fragment))
        ? []
        : broken(`no heading #${fragment} in ${relative(root, destination)}`);
    });
  });
}
