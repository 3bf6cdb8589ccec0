import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { cliAt, CliRun } from './support/cli-process';

/**
 * The client side of `tributary apply`: arguments, confirmation, the dry run then the apply with
 * `If-Match`, and the exit code of each answer. `POST /v1/apply` is played by a stand-in server
 * here; the service's own endpoint gets its end-to-end tests where it is built.
 */

interface Seen {
  method: string;
  url: string;
  ifMatch?: string;
  contentType?: string;
  body: unknown;
}

type Reply = (request: Seen) => { status: number; body?: unknown };

const PLAN = {
  dryRun: true,
  applied: false,
  changes: [
    { action: 'create', kind: 'scope', resource: 'prn::/scope:sales' },
    { action: 'create', kind: 'stream', resource: 'prn::/scope:sales/stream:orders' },
    {
      action: 'update',
      kind: 'stream',
      resource: 'prn::/scope:sales/stream:refunds',
      diff: [{ path: 'scalingPolicy.minSegments', before: 1, after: 4 }],
    },
  ],
  summary: { create: 2, update: 1, delete: 0, unchanged: 0 },
  conflicts: [],
  planVersion: '"plan-1"',
};
const APPLIED = { ...PLAN, dryRun: false, applied: true };
const NOTHING = {
  ...PLAN,
  changes: [{ action: 'unchanged', kind: 'scope', resource: 'prn::/scope:sales' }],
  summary: { create: 0, update: 0, delete: 0, unchanged: 1 },
};

const DOCUMENT = {
  scopes: [
    {
      scopeName: 'sales',
      streams: [
        { streamName: 'orders', scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 4 } },
        { streamName: 'refunds', streamTags: ['billing'] },
      ],
      readerGroups: [{ readerGroupName: 'billing', streams: ['orders'] }],
    },
  ],
};

const VIOLATION = {
  rule: 'maxStreams',
  limit: 1,
  actual: 2,
  detail: 'The change would make 2 user streams in the scope, over the limit of 1.',
  resource: 'prn::/scope:sales/stream:orders',
};
const BREAKING = {
  ...PLAN,
  changes: [
    ...PLAN.changes.slice(0, 1),
    { action: 'create', kind: 'scopePolicy', resource: 'prn::/scope:sales' },
    ...PLAN.changes.slice(1),
  ],
  violations: [VIOLATION],
};

const planThenApply: Reply = (r) =>
  r.url.includes('dryRun=true') ? { status: 200, body: PLAN } : { status: 200, body: APPLIED };

async function bodyOf(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString();
  return text ? (JSON.parse(text) as unknown) : undefined;
}

describe('tributary apply, client side (e2e with a stand-in server)', () => {
  let server: Server;
  let seen: Seen[];
  let reply: Reply;
  let cli: ReturnType<typeof cliAt>;
  let url: string;
  let yamlFile: string;
  let jsonFile: string;

  beforeAll(async () => {
    server = createServer((request, response) => {
      void bodyOf(request).then((body) => {
        const record: Seen = {
          method: request.method!,
          url: request.url!,
          ifMatch: request.headers['if-match'],
          contentType: request.headers['content-type'],
          body,
        };
        seen.push(record);
        const { status, body: answer } = reply(record);
        if (status === 0) return; // a service that never answers
        const type = status >= 400 ? 'application/problem+json' : 'application/json';
        response.writeHead(status, { 'Content-Type': type });
        response.end(answer === undefined ? '' : JSON.stringify(answer));
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    cli = cliAt(url);
    const dir = await mkdtemp(join(tmpdir(), 'tributary-apply-'));
    yamlFile = join(dir, 'topology.yaml');
    jsonFile = join(dir, 'topology.json');
    await writeFile(yamlFile, stringify(DOCUMENT));
    await writeFile(jsonFile, JSON.stringify(DOCUMENT));
  });
  beforeEach(() => {
    seen = [];
    reply = planThenApply;
  });
  afterAll(async () => {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  });

  it('--dry-run shows the plan as a diff and sends only the dry run, with the parsed YAML', async () => {
    const run = await cli(['apply', '-f', yamlFile, '--dry-run', '-o', 'table']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('+ create    stream      prn::/scope:sales/stream:orders');
    expect(run.stdout).toContain('scalingPolicy.minSegments: 1 -> 4');
    expect(run.stdout).toContain('Plan: 2 to create, 1 to update, 0 to delete, 0 unchanged.');
    expect(seen).toEqual([
      {
        method: 'POST',
        url: '/v1/apply?dryRun=true',
        ifMatch: undefined,
        contentType: 'application/json',
        body: DOCUMENT,
      },
    ]);
  });

  it('prints the REST answer with -o json and -o yaml', async () => {
    const run = await cli(['apply', '-f', jsonFile, '--dry-run', '-o', 'json']);
    expect(JSON.parse(run.stdout)).toEqual(PLAN);
    const yaml = await cli(['apply', '-f', jsonFile, '--dry-run', '-o', 'yaml']);
    expect(yaml.stdout).toContain('planVersion: \'"plan-1"\'');
  });

  it('changes nothing and exits 1 when stdin is not a terminal and --yes is absent', async () => {
    const run = await cli(['apply', '-f', yamlFile]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('add --yes');
    expect(seen.map((r) => r.url)).toEqual(['/v1/apply?dryRun=true']);
  });

  it('with --yes applies the plan it showed, sending its planVersion as If-Match', async () => {
    const run = await cli(['apply', '-f', yamlFile, '--yes', '--prune', '-o', 'json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(APPLIED);
    expect(seen.map((r) => [r.url, r.ifMatch])).toEqual([
      ['/v1/apply?dryRun=true', undefined],
      ['/v1/apply', '"plan-1"'],
    ]);
    expect(seen[1].body).toEqual({ ...DOCUMENT, prune: true });
    const table = await cli(['apply', '-f', yamlFile, '--yes', '-o', 'table']);
    expect(table.stdout).toContain('Applied: 2 created, 1 updated, 0 deleted, 0 unchanged.');
  });

  it('reads the document from stdin with -f -', async () => {
    const run = await cli(['apply', '-f', '-', '--dry-run'], { input: stringify(DOCUMENT) });
    expect(run.code).toBe(0);
    expect(seen[0].body).toEqual(DOCUMENT);
  });

  it('asks on a terminal and applies only after yes', async () => {
    const onTerminal = (answer: string): Promise<CliRun> =>
      new Promise((resolve) => {
        // `script` gives the CLI a pseudo-terminal as stdin; the answer is typed into it.
        const command = [
          process.execPath,
          join(__dirname, '../dist/src/cli/main.js'),
          '--url',
          url,
          'apply',
          '-f',
          yamlFile,
          '-o',
          'json',
        ]
          .map((a) => `'${a}'`)
          .join(' ');
        const child = spawn('script', ['-qec', command, '/dev/null'], {
          env: { PATH: process.env.PATH, NO_COLOR: '1' },
        });
        let stdout = '';
        let answered = false;
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          // Answer the prompt once: later output still holds it, and the CLI may be gone by then.
          if (!answered && stdout.includes('[y/N]')) {
            answered = true;
            child.stdin.write(`${answer}\n`);
          }
        });
        child.on('close', (code) => resolve({ code, stdout, stderr: '' }));
      });
    const declined = await onTerminal('n');
    expect(declined.code).toBe(1);
    expect(declined.stdout).toContain('Apply these changes? [y/N]');
    expect(seen).toHaveLength(1);
    const accepted = await onTerminal('y');
    expect(accepted.code).toBe(0);
    expect(seen.map((r) => r.ifMatch)).toEqual([undefined, undefined, '"plan-1"']);
  });

  it('shows a dry run with a policy and its violations, and applies nothing that breaks one (exit 5)', async () => {
    reply = () => ({ status: 200, body: BREAKING });
    const dry = await cli(['apply', '-f', yamlFile, '--dry-run', '-o', 'table']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('+ create    scopePolicy prn::/scope:sales');
    expect(dry.stdout).toContain(
      'Policy violation: prn::/scope:sales/stream:orders: maxStreams: The change would make 2',
    );
    seen = [];
    const run = await cli(['apply', '-f', yamlFile, '--yes']);
    expect(run.code).toBe(5);
    expect(run.stderr).toContain('the document breaks rules of scope policies');
    expect(run.stderr).toContain('prn::/scope:sales/stream:orders: maxStreams:');
    expect(seen.map((r) => r.url)).toEqual(['/v1/apply?dryRun=true']);
  });

  it('does not ask or apply when the plan changes nothing', async () => {
    reply = () => ({ status: 200, body: NOTHING });
    const run = await cli(['apply', '-f', yamlFile, '-o', 'table']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Plan: 0 to create, 0 to update, 0 to delete, 1 unchanged.');
    expect(seen).toHaveLength(1);
  });

  it.each([
    [412, 3, { detail: 'The plan is stale', code: 'PRECONDITION_FAILED' }, 'The plan is stale'],
    [
      409,
      3,
      {
        detail: 'Stream sales/refunds is sealed',
        conflicts: [{ resource: 'prn::/scope:sales/stream:refunds', message: 'sealed' }],
      },
      'prn::/scope:sales/stream:refunds',
    ],
    [403, 4, { detail: 'Needs READ_UPDATE on prn::/scope:sales' }, 'prn::/scope:sales'],
    [
      422,
      5,
      { detail: 'Applying the document would break a rule', violations: [VIOLATION] },
      'prn::/scope:sales/stream:orders: maxStreams: The change would make 2 user streams',
    ],
    [503, 6, { detail: 'Database unavailable' }, 'Database unavailable'],
  ])('exits by the status of the apply: %i gives %i', async (status, code, problem, message) => {
    reply = (r) =>
      r.url.includes('dryRun') ? { status: 200, body: PLAN } : { status, body: problem };
    const run = await cli(['apply', '-f', yamlFile, '--yes']);
    expect(run.code).toBe(code);
    expect(run.stderr).toContain(message);
  });

  it('exits 6 when the service does not answer within --timeout', async () => {
    reply = () => ({ status: 0 });
    const run = await cli(['apply', '-f', yamlFile, '--dry-run', '--timeout', '300']);
    expect(run.code).toBe(6);
    expect(run.stderr).toContain('cannot reach');
  });

  it('exits 5 naming each invalid path when the document is refused', async () => {
    reply = () => ({
      status: 400,
      body: {
        detail: 'Invalid document',
        errors: [
          {
            field: 'scopes[0].streams[1].scalingPolicy.minSegments',
            message: 'must be greater than 0',
          },
        ],
      },
    });
    const run = await cli(['apply', '-f', yamlFile, '--dry-run']);
    expect(run.code).toBe(5);
    expect(run.stderr).toContain(
      'scopes[0].streams[1].scalingPolicy.minSegments: must be greater than 0',
    );
  });

  it('exits 1 without -f or with a missing file, and 5 for a file that is not YAML, sending nothing', async () => {
    expect((await cli(['apply'])).code).toBe(1);
    const missing = await cli(['apply', '-f', '/nonexistent/topology.yaml']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('cannot read');
    const broken = join(await mkdtemp(join(tmpdir(), 'tributary-apply-')), 'broken.yaml');
    await writeFile(broken, 'scopes: [unclosed\n');
    expect((await cli(['apply', '-f', broken])).code).toBe(5);
    expect(seen).toEqual([]);
  });
});
