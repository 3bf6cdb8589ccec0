/**
 * The node floor: the least a Node.js program can do to answer the benchmark's routes, plain
 * `node:http` routing to the handlers both floors share (`floor-handlers.ts`). Started by
 * `bench/run.ts` with PORT, DATABASE_URL and DB_POOL_SIZE.
 */
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import * as floor from './floor-handlers';
import { HttpError, statusOf } from './floor-handlers';

function send(res: ServerResponse, status: number, body?: unknown, link?: string): void {
  if (link !== undefined) res.setHeader('Link', link);
  if (body === undefined) {
    res.writeHead(status, { 'Content-Length': 0 }).end();
    return;
  }
  const json = JSON.stringify(body);
  res
    .writeHead(status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(json),
    })
    .end(json);
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
      return body as Record<string, unknown>;
    }
  } catch {
    // answered below
  }
  throw new HttpError(400);
}

const callerOf = (req: IncomingMessage): floor.Caller => ({
  address: req.socket.remoteAddress,
  userAgent: req.headers['user-agent'],
});

const notFound = (): never => {
  throw new HttpError(404);
};

/** Routes a request; answers the status and the body (undefined: no body). */
async function route(req: IncomingMessage, url: URL): Promise<[number, unknown?, string?]> {
  const method = req.method;
  // Where a starting process is asked whether it serves yet (ServiceProcess.ready).
  if (url.pathname === '/ping') return [200];
  if (url.pathname === '/readyz' && method === 'GET') return [200, await floor.readyz()];
  const [v1, resource, scope, sub, name, tail, ...rest] = url.pathname
    .split('/')
    .slice(1)
    .map(decodeURIComponent);
  if (v1 !== 'v1' || rest.length > 0) notFound();
  if (resource === 'health' && scope === undefined && method === 'GET') {
    return [200, await floor.health()];
  }
  if (resource !== 'scopes') notFound();
  if (scope === undefined && method === 'GET') return [200, await floor.listScopes()];
  if (sub === undefined && method === 'GET') return [200, await floor.getScope(scope)];
  if (sub === 'readergroups' && tail === undefined) {
    if (name === undefined && method === 'POST') {
      return [201, await floor.createReaderGroup(scope, await readJson(req), callerOf(req))];
    }
    if (name !== undefined && method === 'GET')
      return [200, await floor.getReaderGroup(scope, name)];
  }
  if (sub !== 'streams') notFound();
  if (name === undefined) {
    if (method === 'GET') {
      const tag = url.searchParams.get('filter_type') === 'tag';
      const page = {
        limit: url.searchParams.get('limit') ?? undefined,
        continuationToken: url.searchParams.get('continuationToken') ?? undefined,
      };
      const body = await floor.listStreams(
        scope,
        (tag && url.searchParams.get('filter_value')) || undefined,
        page,
      );
      return [200, body, floor.pageLink(req.url ?? '/', body, page)];
    }
    if (method === 'POST') {
      return [201, await floor.createStream(scope, await readJson(req), callerOf(req))];
    }
  } else if (tail === undefined) {
    if (method === 'GET') return [200, await floor.getStream(scope, name)];
    if (method === 'PUT') {
      return [200, await floor.updateStream(scope, name, await readJson(req), callerOf(req))];
    }
  } else if (tail === 'scaling-events' && method === 'GET') {
    const { searchParams: q } = url;
    const [from, to] = [q.get('from') ?? undefined, q.get('to') ?? undefined];
    return [200, await floor.scalingEvents(scope, name, from, to)];
  }
  return notFound();
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://floor');
  route(req, url).then(
    ([status, body, link]) => send(res, status, body, link),
    (error: unknown) => send(res, statusOf(error)),
  );
});

server.listen(Number(process.env.PORT ?? 9092), process.env.HOST ?? '127.0.0.1');

const stop = (): void => {
  server.close();
  server.closeAllConnections();
  void floor.closePool();
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
