import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join, relative, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { StoredEncoding } from './content-encoding';

/** Where the console is served; its build uses the same base (web/vite.config.mts). */
export const CONSOLE_PATH = '/console';

/** The page every path of the console answers (the page reads the path and shows that screen). */
export const CONSOLE_PAGE = '/index.html';

/** Vite writes the hashed files here: their names change whenever their content does. */
const HASHED_FOLDER = '/assets/';

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The page and the unhashed files: cached, but asked again (a 304 when unchanged) before use. */
const REVALIDATE = 'no-cache';

const MEDIA_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

const ENCODED_SUFFIX: Record<StoredEncoding, string> = { br: '.br', gzip: '.gz' };

/** One file of the console as it is sent: its bytes, their stored encodings, its headers. */
export interface ConsoleFile {
  mediaType: string;
  cacheControl: string;
  /** Strong, from the content: a reload after a new build gets the new page. */
  etag: string;
  bytes: Buffer;
  encoded: Partial<Record<StoredEncoding, Buffer>>;
}

const etagOf = (bytes: Buffer): string =>
  `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;

/** The folder the project's build writes the console into: dist/console of the package. */
export function consoleFolder(from: string = __dirname): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, 'dist', 'console');
}

/**
 * Reads the built console into memory (about a hundred kilobytes with its compressed copies),
 * keyed by the path below {@link CONSOLE_PATH}; undefined when it has not been built.
 */
export function loadConsoleFiles(folder: string): Map<string, ConsoleFile> | undefined {
  if (!existsSync(join(folder, CONSOLE_PAGE))) return undefined;
  const files = new Map<string, ConsoleFile>();
  const names = readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
  const stored = new Set(names);
  for (const name of names) {
    const mediaType = MEDIA_TYPES[extname(name)];
    if (!mediaType) continue;
    const path = `/${relative(folder, name).split(sep).join('/')}`;
    const bytes = readFileSync(name);
    const encoded: ConsoleFile['encoded'] = {};
    for (const [encoding, suffix] of Object.entries(ENCODED_SUFFIX)) {
      if (stored.has(name + suffix)) {
        encoded[encoding as StoredEncoding] = readFileSync(name + suffix);
      }
    }
    files.set(path, {
      mediaType,
      cacheControl: path.startsWith(HASHED_FOLDER) ? IMMUTABLE : REVALIDATE,
      etag: etagOf(bytes),
      bytes,
      encoded,
    });
  }
  return files;
}

/**
 * The file a path below {@link CONSOLE_PATH} answers: the file itself, none for a missing file
 * under the hashed folder (a stale page asking for an old build's script must not get HTML),
 * else the page, whose script shows the screen the path names.
 */
export function fileFor(files: Map<string, ConsoleFile>, path: string): ConsoleFile | undefined {
  const file = files.get(path);
  if (file) return file;
  if (path.startsWith(HASHED_FOLDER)) return undefined;
  return files.get(CONSOLE_PAGE);
}

const escapeAttribute = (value: string): string =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The page with `<meta name content>` elements added to its head (what the service tells the
 * page at start: public settings only), stored encodings and ETag made anew for its new bytes.
 * Done once, when the service starts.
 */
export function withPageMeta(
  files: Map<string, ConsoleFile>,
  meta: Record<string, string>,
): Map<string, ConsoleFile> {
  const page = files.get(CONSOLE_PAGE);
  if (!page || Object.keys(meta).length === 0) return files;
  const elements = Object.entries(meta)
    .map(
      ([name, content]) =>
        `<meta name="${escapeAttribute(name)}" content="${escapeAttribute(content)}" />`,
    )
    .join('');
  const html = page.bytes.toString('utf8');
  const at = html.indexOf('</head>');
  if (at < 0) throw new Error(`the console's page has no </head>`);
  const bytes = Buffer.from(html.slice(0, at) + elements + html.slice(at), 'utf8');
  const encoded: ConsoleFile['encoded'] = {};
  if (page.encoded.br) {
    encoded.br = brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
    });
  }
  if (page.encoded.gzip) encoded.gzip = gzipSync(bytes, { level: 9 });
  return new Map(files).set(CONSOLE_PAGE, { ...page, bytes, encoded, etag: etagOf(bytes) });
}
