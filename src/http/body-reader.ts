import type { IncomingMessage } from 'node:http';
import type { Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import {
  DomainError,
  MalformedBodyError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
} from '../common/domain-error';

/** What reading a body checks as it goes. */
export interface BodyReading {
  /** The most bytes the body may hold, once inflated. */
  limit: number;
  /** What the body is, for the client's messages (`JSON`, `YAML`). */
  format: string;
  /** Looks at each chunk as it arrives, inflated; a refusal stops the reading there. */
  inspect?: (chunk: Buffer) => DomainError | undefined;
}

/**
 * Inflating works in the thread pool a chunk at a time: chunks larger than zlib's 16 KiB take
 * fewer round trips to reach the size limit of a body that inflates without end.
 */
const INFLATED_CHUNK_BYTES = 256 * 1024;

/** The content encodings a body may be sent in, and what inflates each. */
const INFLATERS = new Map<string, () => Transform>([
  ['gzip', () => createGunzip({ chunkSize: INFLATED_CHUNK_BYTES })],
  ['deflate', () => createInflate({ chunkSize: INFLATED_CHUNK_BYTES })],
  ['br', () => createBrotliDecompress({ chunkSize: INFLATED_CHUNK_BYTES })],
]);

/** What inflates the body of a request sent with `Content-Encoding`, piped from it. */
function inflater(req: IncomingMessage): Transform | undefined {
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding === 'identity') return undefined;
  const inflate = INFLATERS.get(encoding);
  if (!inflate) {
    throw new UnsupportedMediaTypeError(
      'The request body must be sent without Content-Encoding, or with gzip, deflate or br',
    );
  }
  return req.pipe(inflate());
}

/** The charset of a request's `Content-Type`, lowercased; UTF-8 when it names none. */
function charsetOf(req: IncomingMessage): string {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(req.headers['content-type'] ?? '');
  return charset ? charset[1].toLowerCase() : 'utf-8';
}

const UTF8 = new Set(['utf-8', 'utf8']);
const BYTE_ORDER_MARK = 0xfeff;

/**
 * Reads a request's body as UTF-8 text, inflating it first when it was sent compressed (gzip,
 * deflate or br), refused as soon as it crosses a bound: more than `limit` bytes once inflated
 * (413, before anything is read when its Content-Length says so), or what `inspect` refuses
 * (docs/behaviour.md section 2). What is read is kept only until then: the rest of a refused
 * body is read and dropped, so that the connection can carry the answer and the requests after.
 */
export async function readBody(req: IncomingMessage, reading: BodyReading): Promise<string> {
  const { limit, format, inspect } = reading;
  const tooLarge = () => new PayloadTooLargeError(`The request body exceeds ${limit} bytes`);
  if (!UTF8.has(charsetOf(req))) {
    throw new UnsupportedMediaTypeError(`The request body must be UTF-8 encoded ${format}`);
  }
  if (
    req.headers['content-encoding'] === undefined &&
    Number(req.headers['content-length']) > limit
  ) {
    throw tooLarge();
  }
  const inflating = inflater(req);
  const body = inflating ?? req;
  // Decoded chunk by chunk as it arrives, so that no large body is decoded in one go.
  const decoder = new StringDecoder('utf8');
  const text = await new Promise<string>((resolve, reject) => {
    const parts: string[] = [];
    let received = 0;
    let settled = false;
    const refuse = (refusal: DomainError) => {
      if (settled) return;
      settled = true;
      body.off('data', onData);
      if (inflating) {
        req.unpipe(inflating);
        inflating.destroy();
      }
      req.resume();
      reject(refusal);
    };
    const unreadable = () => refuse(new MalformedBodyError('The request body could not be read'));
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) return refuse(tooLarge());
      const refusal = inspect?.(chunk);
      if (refusal) return refuse(refusal);
      parts.push(decoder.write(chunk));
    };
    body.on('data', onData);
    body.on('end', () => {
      if (settled) return;
      settled = true;
      parts.push(decoder.end());
      resolve(parts.join(''));
    });
    body.on('error', unreadable);
    req.on('error', unreadable);
  });
  return text.charCodeAt(0) === BYTE_ORDER_MARK ? text.slice(1) : text;
}
