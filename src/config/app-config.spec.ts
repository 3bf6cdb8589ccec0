import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidConfigError, loadConfig } from './app-config';

/** The problems loadConfig lists for `env`; none when it loads. */
function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (!(error instanceof InvalidConfigError)) throw error;
    return error.problems;
  }
}

describe('loadConfig', () => {
  it('applies the defaults to an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 9091,
      HOST: '0.0.0.0',
      DATABASE_URL: undefined,
      LOG_LEVEL: 'log',
      DATA_DIR: './data',
      MAX_BODY_BYTES: 1048576,
      METRICS_ENABLED: true,
      CONSOLE_ENABLED: true,
      IDEMPOTENCY_TTL_HOURS: 24,
    });
  });

  it('reads IDEMPOTENCY_TTL_HOURS', () => {
    expect(loadConfig({ IDEMPOTENCY_TTL_HOURS: '2' }).IDEMPOTENCY_TTL_HOURS).toBe(2);
  });

  it('keeps audit events 365 days unless AUDIT_RETENTION_DAYS says otherwise, within bounds', () => {
    expect(loadConfig({}).AUDIT_RETENTION_DAYS).toBe(365);
    expect(loadConfig({ AUDIT_RETENTION_DAYS: '30' }).AUDIT_RETENTION_DAYS).toBe(30);
    expect(loadConfig({ AUDIT_RETENTION_DAYS: '36500' }).AUDIT_RETENTION_DAYS).toBe(36_500);
    for (const value of ['0', '-1', '1.5', '36501', 'forever']) {
      expect([value, problemsOf({ AUDIT_RETENTION_DAYS: value })]).toEqual([
        value,
        [expect.stringMatching(/^AUDIT_RETENTION_DAYS/)],
      ]);
    }
  });

  it.each([
    ['false', false],
    ['FALSE', false],
    ['true', true],
  ])('reads METRICS_ENABLED=%s', (value, expected) => {
    expect(loadConfig({ METRICS_ENABLED: value }).METRICS_ENABLED).toBe(expected);
  });

  it.each([
    ['false', false],
    ['0', false],
    ['true', true],
  ])('reads CONSOLE_ENABLED=%s', (value, expected) => {
    expect(loadConfig({ CONSOLE_ENABLED: value }).CONSOLE_ENABLED).toBe(expected);
  });

  it('reads numbers, urls and levels from strings', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgres://u@localhost:5432/db',
      LOG_LEVEL: 'debug',
      MAX_BODY_BYTES: '2048',
    });
    expect(config.PORT).toBe(8080);
    expect(config.DATABASE_URL).toBe('postgres://u@localhost:5432/db');
    expect(config.LOG_LEVEL).toBe('debug');
    expect(config.MAX_BODY_BYTES).toBe(2048);
  });

  it('treats an empty DATABASE_URL as absent and info as log', () => {
    const config = loadConfig({ DATABASE_URL: '', LOG_LEVEL: 'info' });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.LOG_LEVEL).toBe('log');
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '1.5'],
    ['LOG_LEVEL', 'loud'],
    ['DATABASE_URL', 'mysql://x'],
    ['MAX_BODY_BYTES', '0'],
    ['METRICS_ENABLED', 'yes'],
    ['CONSOLE_ENABLED', 'off'],
    ['IDEMPOTENCY_TTL_HOURS', '0'],
    ['IDEMPOTENCY_TTL_HOURS', '1.5'],
    ['IDEMPOTENCY_TTL_HOURS', '9000'],
  ])('rejects %s=%s with a message naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(InvalidConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });

  it('reads the change feed stream bounds, with their defaults, and refuses what is out of range', () => {
    expect(loadConfig({})).toMatchObject({
      EVENTS_HEARTBEAT_MS: 10_000,
      EVENTS_SLOW_CLIENT_MS: 30_000,
    });
    expect(
      loadConfig({
        EVENTS_HEARTBEAT_MS: '100',
        EVENTS_SLOW_CLIENT_MS: '1000',
      }),
    ).toMatchObject({
      EVENTS_HEARTBEAT_MS: 100,
      EVENTS_SLOW_CLIENT_MS: 1000,
    });
    // Section 8 promises a comment at least every 15 s.
    for (const env of [
      { EVENTS_HEARTBEAT_MS: '15001' },
      { EVENTS_HEARTBEAT_MS: '0' },
      { EVENTS_SLOW_CLIENT_MS: '99' },
      { EVENTS_SLOW_CLIENT_MS: 'soon' },
    ]) {
      expect([env, problemsOf(env).length]).toEqual([env, 1]);
      expect(problemsOf(env)[0]).toContain(Object.keys(env)[0]);
    }
  });

  it('says that a number setting must be an integer when it is not one, and its bound when it is', () => {
    expect(problemsOf({ PORT: 'ten', DB_POOL_SIZE: '1.5', EVENTS_SLOW_CLIENT_MS: '' })).toEqual([
      'PORT must be an integer number (got "ten")',
      'DB_POOL_SIZE must be an integer number (got "1.5")',
      'EVENTS_SLOW_CLIENT_MS must be an integer number (got "")',
    ]);
    expect(problemsOf({ PORT: '70000', DB_POOL_SIZE: '-1' })).toEqual([
      'PORT must not be greater than 65535 (got "70000")',
      'DB_POOL_SIZE must not be less than 1 (got "-1")',
    ]);
    expect(problemsOf({ AUTH_OIDC_CLOCK_TOLERANCE_S: 'x' })).toEqual([
      'AUTH_OIDC_CLOCK_TOLERANCE_S must be a whole number of seconds (got "x")',
    ]);
  });

  it('lists every problem at once', () => {
    try {
      loadConfig({ PORT: 'x', LOG_LEVEL: 'y' });
      throw new Error('expected a failure');
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidConfigError);
      expect((error as InvalidConfigError).problems).toHaveLength(2);
    }
  });

  it('reads TRUST_PROXY and names it when it is invalid', () => {
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8' }).TRUST_PROXY).toBe('10.0.0.0/8');
    expect(loadConfig({ TRUST_PROXY: '' }).TRUST_PROXY).toBeUndefined();
    expect(problemsOf({ TRUST_PROXY: 'balancer' })).toEqual([
      'TRUST_PROXY must be a number of hops, or addresses, CIDR ranges and loopback, linklocal ' +
        'or uniquelocal separated by commas: "balancer" is not an address, a CIDR range or a ' +
        'range name (got "balancer")',
    ]);
  });

  describe('secrets from files (X_FILE)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tributary-config-'));
    const file = (name: string, content: string): string => {
      const path = join(dir, name);
      writeFileSync(path, content, { mode: 0o600 });
      return path;
    };

    it('reads DATABASE_URL from DATABASE_URL_FILE, trimmed', () => {
      const path = file('url', '  postgres://app:s3cret@db:5432/tributary\n\n');
      expect(loadConfig({ DATABASE_URL_FILE: path }).DATABASE_URL).toBe(
        'postgres://app:s3cret@db:5432/tributary',
      );
    });

    it('refuses both DATABASE_URL and DATABASE_URL_FILE, naming them', () => {
      const path = file('both', 'postgres://app:s3cret@db/tributary');
      expect(
        problemsOf({ DATABASE_URL: 'postgres://other@db/x', DATABASE_URL_FILE: path }),
      ).toEqual(['DATABASE_URL and DATABASE_URL_FILE are both set: set only one of them']);
    });

    it('treats an empty DATABASE_URL beside the file as unset', () => {
      const path = file('beside-empty', 'postgres://app@db/tributary');
      expect(loadConfig({ DATABASE_URL: '', DATABASE_URL_FILE: path }).DATABASE_URL).toBe(
        'postgres://app@db/tributary',
      );
    });

    it('names a file that cannot be read, or is empty', () => {
      const missing = join(dir, 'missing');
      expect(problemsOf({ DATABASE_URL_FILE: missing })).toEqual([
        `DATABASE_URL_FILE names a file that cannot be read (ENOENT: ${missing})`,
      ]);
      const empty = file('empty', ' \n');
      expect(problemsOf({ DATABASE_URL_FILE: empty })).toEqual([
        `DATABASE_URL_FILE names an empty file (${empty})`,
      ]);
    });

    it('refuses an sslmode the driver does not know, echoing only the mode', () => {
      const url = 'postgres://app:s3cret@db:5432/x';
      for (const mode of ['disable', 'require', 'verify-full', 'no-verify']) {
        expect(problemsOf({ DATABASE_URL: `${url}?sslmode=${mode}&sslrootcert=/ca.pem` })).toEqual(
          [],
        );
      }
      expect(problemsOf({ DATABASE_URL: `${url}?sslmode=disabled` })).toEqual([
        'DATABASE_URL has sslmode=disabled: sslmode must be one of disable, prefer, require, ' +
          'verify-ca, verify-full, no-verify',
      ]);
      expect(
        problemsOf({
          DATABASE_URL_FILE: file('sslmode', `${url}?sslrootcert=/ca.pem&sslmode=verify_full`),
        }),
      ).toEqual([
        'DATABASE_URL has sslmode=verify_full: sslmode must be one of disable, prefer, require, ' +
          'verify-ca, verify-full, no-verify',
      ]);
    });

    it('never echoes an invalid secret', () => {
      const path = file('invalid', 'mysql://app:s3cret@db/x');
      expect(problemsOf({ DATABASE_URL_FILE: path })).toEqual([
        'DATABASE_URL must be a postgres:// URL',
      ]);
      expect(problemsOf({ DATABASE_URL: 'mysql://app:s3cret@db/x' })).toEqual([
        'DATABASE_URL must be a postgres:// URL',
      ]);
    });
  });
});

describe('loadConfig: bearer tokens of an OpenID Connect provider', () => {
  const ISSUER = { AUTH_OIDC_ISSUER: 'https://idp.example/realms/r', AUTH_OIDC_AUDIENCE: 'api' };

  it('has the defaults of the identity settings in docs/extensions.md section 9', () => {
    expect(loadConfig({})).toMatchObject({
      AUTH_OIDC_ISSUER: undefined,
      AUTH_OIDC_AUDIENCE: undefined,
      AUTH_OIDC_PRINCIPAL_CLAIM: 'sub',
      AUTH_OIDC_GROUPS_CLAIM: 'groups',
      AUTH_OIDC_ACL_CLAIM: undefined,
      AUTH_GROUP_ACLS_FILE: undefined,
      AUTH_OIDC_CLOCK_TOLERANCE_S: 30,
      AUTH_OIDC_UI_CLIENT_ID: undefined,
    });
  });

  it('reads every setting, and makes the accounts file optional beside an issuer', () => {
    const config = loadConfig({
      AUTH_ENABLED: 'true',
      ...ISSUER,
      AUTH_OIDC_PRINCIPAL_CLAIM: 'preferred_username',
      AUTH_OIDC_GROUPS_CLAIM: 'realm_access.roles',
      AUTH_OIDC_ACL_CLAIM: 'https://tributary.example/acl',
      AUTH_GROUP_ACLS_FILE: '/etc/tributary/groups.yaml',
      AUTH_OIDC_CLOCK_TOLERANCE_S: '5',
      AUTH_OIDC_UI_CLIENT_ID: 'swagger',
    });
    expect(config).toMatchObject({
      AUTH_ACCOUNTS_FILE: undefined,
      AUTH_OIDC_GROUPS_CLAIM: 'realm_access.roles',
      AUTH_OIDC_ACL_CLAIM: 'https://tributary.example/acl',
      AUTH_OIDC_CLOCK_TOLERANCE_S: 5,
      AUTH_OIDC_UI_CLIENT_ID: 'swagger',
    });
  });

  it.each([
    [{ AUTH_OIDC_ISSUER: 'https://idp.example' }, 'AUTH_OIDC_AUDIENCE'],
    [{ ...ISSUER, AUTH_OIDC_ISSUER: 'idp.example' }, 'AUTH_OIDC_ISSUER'],
    [{ ...ISSUER, AUTH_OIDC_ISSUER: 'https://idp.example/?x=1' }, 'AUTH_OIDC_ISSUER'],
    [{ ...ISSUER, AUTH_OIDC_GROUPS_CLAIM: 'realm_access..roles' }, 'AUTH_OIDC_GROUPS_CLAIM'],
    [{ ...ISSUER, AUTH_OIDC_PRINCIPAL_CLAIM: 'a b' }, 'AUTH_OIDC_PRINCIPAL_CLAIM'],
    [{ ...ISSUER, AUTH_OIDC_ACL_CLAIM: '.acl' }, 'AUTH_OIDC_ACL_CLAIM'],
    [{ ...ISSUER, AUTH_OIDC_CLOCK_TOLERANCE_S: '-1' }, 'AUTH_OIDC_CLOCK_TOLERANCE_S'],
    [{ ...ISSUER, AUTH_OIDC_CLOCK_TOLERANCE_S: 'soon' }, 'AUTH_OIDC_CLOCK_TOLERANCE_S'],
    [{ AUTH_OIDC_UI_CLIENT_ID: 'swagger' }, 'AUTH_OIDC_UI_CLIENT_ID'],
    [{ AUTH_ENABLED: 'true' }, 'AUTH_ACCOUNTS_FILE'],
  ])('rejects %j naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(InvalidConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });
});
