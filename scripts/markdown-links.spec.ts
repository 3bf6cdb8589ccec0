import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { anchorsOf, brokenLinks, githubSlug, linksOf, markdownFiles } from './markdown-links';

const root = resolve(__dirname, '..');

describe('the Markdown files of the repository', () => {
  it('are found, dependencies and build output aside', () => {
    const files = markdownFiles(root);
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/configuration.md']));
    expect(files.filter((f) => /(^|\/)(node_modules|dist)\//.test(f))).toEqual([]);
  });

  it('have no relative link to a missing file or heading', () => {
    const broken = brokenLinks(root).map(
      ({ file, line, target, problem }) => `${file}:${line} ${target} (${problem})`,
    );
    expect(broken).toEqual([]);
  });
});

describe('githubSlug', () => {
  it.each([
    ['Behind a load balancer', 'behind-a-load-balancer'],
    ['TLS to PostgreSQL', 'tls-to-postgresql'],
    ['The change feed (`npm run bench:feed`)', 'the-change-feed-npm-run-benchfeed'],
    ['Bearer tokens (docs/extensions.md section 9)', 'bearer-tokens-docsextensionsmd-section-9'],
    ['A/B against another build', 'ab-against-another-build'],
    ['Secrets from files', 'secrets-from-files'],
    ['With [docker compose](https://docs.docker.com)', 'with-docker-compose'],
    ['snake_case and-hyphens', 'snake_case-and-hyphens'],
  ])('names "%s" #%s', (heading, slug) => {
    expect(githubSlug(heading)).toBe(slug);
  });
});

describe('anchorsOf and linksOf', () => {
  it('number repeated headings, and see nothing inside code', () => {
    const text = [
      '# Title',
      '## Usage',
      '```sh',
      '# not a heading [x](missing.md)',
      '```',
      '## Usage',
      '<a id="kept"></a>',
      'See [it](other.md#part "a title") and `[code](nowhere.md)`, ![img](pic.png).',
      '[ref]: <defined.md#there>',
    ].join('\n');
    expect([...anchorsOf(text)].sort()).toEqual(['kept', 'title', 'usage', 'usage-1']);
    expect(linksOf(text)).toEqual([
      { line: 8, target: 'other.md#part' },
      { line: 8, target: 'pic.png' },
      { line: 9, target: 'defined.md#there' },
    ]);
  });
});

describe('brokenLinks', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'markdown-links-'));
    mkdirSync(join(dir, 'docs'));
    mkdirSync(join(dir, 'node_modules'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('names each link to a missing file or heading, with its line, and passes the good ones', () => {
    writeFileSync(
      join(dir, 'README.md'),
      [
        '# Readme',
        '[fine](docs/guide.md#set-up), [here](#readme), [site](https://example.com/x.md)',
        '[gone](docs/missing.md)',
        '[no heading](docs/guide.md#tear-down)',
        '[folder](docs/) [folder anchor](docs#x)',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'docs', 'guide.md'),
      '# Guide\n\n## Set up\n\n[back](../README.md#nope)\n',
    );
    writeFileSync(join(dir, 'node_modules', 'ignored.md'), '[gone](nowhere.md)\n');
    expect(brokenLinks(dir)).toEqual([
      {
        file: 'README.md',
        line: 3,
        target: 'docs/missing.md',
        problem: 'no such file: docs/missing.md',
      },
      {
        file: 'README.md',
        line: 4,
        target: 'docs/guide.md#tear-down',
        problem: 'no heading #tear-down in docs/guide.md',
      },
      {
        file: 'README.md',
        line: 5,
        target: 'docs#x',
        problem: 'a #fragment of something that is not a Markdown file',
      },
      {
        file: 'docs/guide.md',
        line: 5,
        target: '../README.md#nope',
        problem: 'no heading #nope in README.md',
      },
    ]);
  });
});
