import { writeFile } from 'node:fs/promises';
import { stringify } from 'yaml';
import { basic, bearer, PASSWORD, writeAccounts, writeGroupAcls } from './support/accounts';
import { formatAccount } from '../src/auth/accounts-file';
import { hashPassword } from '../src/auth/password-hash';
import { cliAt, CliRun } from './support/cli-process';
import { eventually } from './support/eventually';
import { AUDIENCE, CLIENT_SECRET, TestOidcProvider } from './support/oidc-provider';
import { freePort, ServiceProcess } from './support/service-process';
import { createTestDatabase } from './support/test-database';

const GROUPS = {
  admins: 'prn::*,READ_UPDATE',
  'sales-readers': 'prn::/scope:sales,READ;prn::/scope:sales/*,READ',
};

/**
 * The built service as a process, with bearer tokens of a provider in the test's process: the
 * CLI's token options, and the accounts and group ACLs read again on SIGHUP.
 */
describe('The built service with bearer tokens (e2e, in-process provider)', () => {
  let provider: TestOidcProvider;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let service: ServiceProcess;
  let accountsFile: string;
  let groupsFile: string;
  let cli: (args: string[], options?: { env?: NodeJS.ProcessEnv }) => Promise<CliRun>;

  beforeAll(async () => {
    provider = await TestOidcProvider.start({
      clients: {
        'admin-client': { groups: ['admins'] },
        'reader-client': { groups: ['sales-readers'] },
        'auditor-client': { groups: ['auditors'] },
      },
    });
    database = await createTestDatabase();
    accountsFile = await writeAccounts({ admin: 'prn::*,READ_UPDATE' });
    groupsFile = await writeGroupAcls(GROUPS);
    service = ServiceProcess.start({
      PORT: String(await freePort()),
      DATABASE_URL: database.url,
      LOG_FORMAT: 'json',
      AUTH_ENABLED: 'true',
      AUTH_ACCOUNTS_FILE: accountsFile,
      AUTH_GROUP_ACLS_FILE: groupsFile,
      AUTH_OIDC_ISSUER: provider.issuer,
      AUTH_OIDC_AUDIENCE: AUDIENCE,
      AUTH_MAX_FAILURES: '1000',
    });
    await service.ready();
    cli = cliAt(service.baseUrl);
    for (const scopeName of ['sales', 'audit']) {
      const res = await fetch(`${service.baseUrl}/v1/scopes`, {
        method: 'POST',
        headers: { Authorization: basic('admin'), 'Content-Type': 'application/json' },
        body: JSON.stringify({ scopeName }),
      });
      expect(res.status).toBe(201);
    }
  });
  afterAll(async () => {
    await service?.stop();
    await database?.drop();
    await provider?.down();
  });

  const clientOptions = (clientId: string, secret = CLIENT_SECRET) => [
    '--issuer',
    provider.issuer,
    '--client-id',
    clientId,
    '--client-secret',
    secret,
  ];

  describe('the CLI', () => {
    it('sends a bearer token given with --token or TRIBUTARY_TOKEN', async () => {
      const token = await provider.clientToken('reader-client');
      const byOption = await cli(['whoami', '-o', 'json', '--token', token]);
      expect([byOption.code, byOption.stderr]).toEqual([0, '']);
      expect(JSON.parse(byOption.stdout)).toMatchObject({
        principal: 'reader-client',
        method: 'bearer',
        groups: ['sales-readers'],
      });
      const byEnv = await cli(['scopes', 'get', 'sales', '-o', 'json'], {
        env: { TRIBUTARY_TOKEN: token },
      });
      expect([byEnv.code, byEnv.stdout]).toEqual([0, '{\n  "scopeName": "sales"\n}\n']);
      const refused = await cli(['scopes', 'get', 'audit', '--token', token]);
      expect([refused.code, refused.stderr]).toEqual([
        4,
        'error: READ on prn::/scope:audit is required\n',
      ]);
    });

    it('gets a token by client credentials with --issuer --client-id --client-secret (--token-scope), or their variables', async () => {
      const created = await cli([
        'scopes',
        'create',
        'by-cli',
        ...clientOptions('admin-client'),
        '--token-scope',
        'tributary',
      ]);
      expect([created.code, created.stderr]).toEqual([0, '']);
      const audit = await fetch(
        `${service.baseUrl}/v1/audit?resource=${encodeURIComponent('prn::/scope:by-cli')}`,
        { headers: { Authorization: basic('admin') } },
      );
      const events = ((await audit.json()) as { auditEvents: { principal: string }[] }).auditEvents;
      expect(events.map((e) => e.principal)).toEqual(['admin-client']);

      const explained = await cli(
        [
          'explain',
          'prn::/scope:sales/stream:x',
          'READ_UPDATE',
          '-o',
          'json',
          '--issuer',
          provider.issuer,
        ],
        { env: { TRIBUTARY_CLIENT_ID: 'reader-client', TRIBUTARY_CLIENT_SECRET: CLIENT_SECRET } },
      );
      expect([explained.code, JSON.parse(explained.stdout)]).toEqual([
        0,
        { allowed: false, matchedEntry: 'prn::/scope:sales/*,READ', source: 'group:sales-readers' },
      ]);
    });

    it('exits 4 when the provider refuses the client, 6 when it cannot be reached, 1 for mixed options', async () => {
      const refused = await cli(['scopes', 'list', ...clientOptions('admin-client', 'wrong')]);
      expect([refused.code, refused.stderr]).toEqual([
        4,
        `error: ${provider.issuer} gave client admin-client no token: invalid_client: client authentication failed\n`,
      ]);
      const unreachable = await cli([
        'scopes',
        'list',
        '--issuer',
        'http://127.0.0.1:1',
        '--client-id',
        'x',
        '--client-secret',
        'y',
      ]);
      expect([unreachable.code, unreachable.stderr]).toEqual([
        6,
        expect.stringMatching(
          /^error: cannot reach http:\/\/127\.0\.0\.1:1\/\.well-known\/openid-configuration: /,
        ),
      ]);
      const mixed = await cli(['scopes', 'list', '--token', 't', '--user', 'admin']);
      expect([mixed.code, mixed.stderr]).toEqual([
        1,
        'error: give one of --user, --token, not several\n',
      ]);
      const partial = await cli(['scopes', 'list', '--client-id', 'admin-client']);
      expect([partial.code, partial.stderr]).toEqual([
        1,
        'error: --issuer, --client-id and --client-secret go together\n',
      ]);
      const alone = await cli(['scopes', 'list', '--password', 'secret']);
      expect([alone.code, alone.stderr]).toEqual([1, 'error: --password goes with --user\n']);
    });
  });

  describe('SIGHUP', () => {
    /** The status of a request with these credentials. */
    const statusWith = async (authorization: string, path = '/v1/scopes/audit') =>
      (await fetch(`${service.baseUrl}${path}`, { headers: { Authorization: authorization } }))
        .status;
    /** Error lines of the service's log that name `file`. */
    const errorsAbout = (file: string) =>
      service.lines.filter((line) => line.includes(file) && line.includes('"level":"error"'));

    it('reads the accounts file and the group ACLs file again, and only then', async () => {
      const auditor = bearer(await provider.clientToken('auditor-client'));
      const late = basic('late');
      await writeFile(
        groupsFile,
        stringify({ groups: { ...GROUPS, auditors: 'prn::/scope:audit,READ' } }),
      );
      const hash = await hashPassword(PASSWORD);
      await writeFile(
        accountsFile,
        [
          formatAccount('admin', hash, 'prn::*,READ_UPDATE'),
          formatAccount('late', hash, 'prn::/scope:audit,READ'),
        ].join('\n'),
      );
      // Changed files mean nothing until the signal.
      expect([await statusWith(auditor), await statusWith(late)]).toEqual([403, 401]);

      service.signal('SIGHUP');
      expect(await eventually(() => statusWith(auditor), 200)).toBe(200);
      expect(await statusWith(late)).toBe(200);
      expect(
        service.lines.filter((line) => line.includes('accounts and group ACLs read again')),
      ).toHaveLength(1);
    });

    it('keeps the previous contents of a file that does not parse, and logs one error line naming it and the line', async () => {
      const reader = bearer(await provider.clientToken('reader-client'));
      expect(await statusWith(reader, '/v1/scopes/sales')).toBe(200);
      await writeFile(
        groupsFile,
        'groups:\n  sales-readers: "prn::/scope:sales,READ"\n  broken: "prn::/,WRITE"\n',
      );
      await writeFile(accountsFile, `admin:plaintext:prn::*,READ\n`);

      service.signal('SIGHUP');
      expect(await eventually(() => Promise.resolve(errorsAbout(groupsFile).length), 1)).toBe(1);
      expect(await eventually(() => Promise.resolve(errorsAbout(accountsFile).length), 1)).toBe(1);
      const [groupsError] = errorsAbout(groupsFile);
      expect(JSON.parse(groupsError)).toMatchObject({
        msg: expect.stringMatching(
          new RegExp(`^${groupsFile}: line 3: group "broken": .+; its previous contents are kept$`),
        ),
      });
      expect(JSON.parse(errorsAbout(accountsFile)[0]).msg).toMatch(
        /: line \d+: .+; its previous contents are kept$/,
      );
      // Still the groups of before: sales-readers may read every stream of sales (the broken
      // file would have allowed the scope alone).
      const explained = await fetch(
        `${service.baseUrl}/v1/auth/explain?resource=prn::/scope:sales/stream:x&permission=READ`,
        { headers: { Authorization: reader } },
      );
      expect(await explained.json()).toEqual({
        allowed: true,
        matchedEntry: 'prn::/scope:sales/*,READ',
        source: 'group:sales-readers',
      });
      expect(await statusWith(basic('admin'), '/v1/scopes/sales')).toBe(200);
      expect((await fetch(`${service.baseUrl}/livez`)).status).toBe(200);
    });
  });
});

describe('SIGHUP with authentication off (e2e)', () => {
  it('still stops the service, as before', async () => {
    const database = await createTestDatabase();
    const service = ServiceProcess.start({
      PORT: String(await freePort()),
      DATABASE_URL: database.url,
    });
    try {
      await service.ready();
      service.signal('SIGHUP');
      expect(await service.exited()).toBe('SIGHUP');
    } finally {
      await service.stop();
      await database.drop();
    }
  });
});
