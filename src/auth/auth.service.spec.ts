import { AppConfig } from '../config/app-config';
import type { AccessFiles } from './access-files.service';
import { parseAcl } from './acl';
import { TooManyAuthFailuresError, UnauthenticatedError } from './auth.errors';
import { AuthService } from './auth.service';
import type { BearerTokens } from './oidc/bearer-tokens.service';
import { hashPassword } from './password-hash';

const PASSWORD = 'the-right-password';
const basic = (user: string, password: string): string =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** What each of `logins` ended in: the principal's name, 401 or 429. */
async function outcomes(logins: Promise<{ name: string }>[]): Promise<string[]> {
  const settled = await Promise.allSettled(logins);
  return settled.map((outcome) => {
    if (outcome.status === 'fulfilled') return outcome.value.name;
    if (outcome.reason instanceof TooManyAuthFailuresError) return '429';
    if (outcome.reason instanceof UnauthenticatedError) return '401';
    throw outcome.reason;
  });
}

const tally = (seen: string[]): Record<string, number> =>
  seen.reduce<Record<string, number>>((counts, outcome) => {
    counts[outcome] = (counts[outcome] ?? 0) + 1;
    return counts;
  }, {});

/** The failed-login limit as logins meet it: AUTH_MAX_FAILURES=5, real scrypt hashes. */
describe('AuthService logins', () => {
  let passwordHash: string;
  let auth: AuthService;

  beforeAll(async () => {
    passwordHash = await hashPassword(PASSWORD);
  });

  beforeEach(async () => {
    const config = Object.assign(new AppConfig(), {
      AUTH_ENABLED: true,
      AUTH_MAX_FAILURES: 5,
      AUTH_FAILURE_WINDOW_MS: 60_000,
    });
    const accounts = new Map(
      ['admin', 'other'].map((name) => [
        name,
        { name, passwordHash, acl: parseAcl('prn::*,READ_UPDATE') },
      ]),
    );
    const files = { accounts, groupAcls: {} } as unknown as AccessFiles;
    auth = new AuthService(config, files, { enabled: false } as BearerTokens);
    await auth.onModuleInit();
  });

  it('hashes at most five of twenty concurrent wrong passwords from one address', async () => {
    const seen = await outcomes(
      Array.from({ length: 20 }, (_, i) => auth.authenticate(basic('admin', `guess-${i}`), 'a')),
    );
    expect(tally(seen)).toEqual({ 401: 5, 429: 15 });
    await expect(auth.authenticate(basic('admin', PASSWORD), 'a')).rejects.toBeInstanceOf(
      TooManyAuthFailuresError,
    );
    expect((await auth.authenticate(basic('admin', PASSWORD), 'b')).name).toBe('admin');
  });

  it('counts the same wrong password sent at once as many failures, refused beyond five', async () => {
    const seen = await outcomes(
      Array.from({ length: 20 }, () => auth.authenticate(basic('nobody', 'guess'), 'a')),
    );
    expect(tally(seen)).toEqual({ 401: 5, 429: 15 });
  });

  it('lets the same right credentials sent at once share one check, none refused', async () => {
    const seen = await outcomes(
      Array.from({ length: 20 }, () => auth.authenticate(basic('admin', PASSWORD), 'a')),
    );
    expect(tally(seen)).toEqual({ admin: 20 });
  });

  it('lets a right password known already in while checks fill the places', async () => {
    await auth.authenticate(basic('admin', PASSWORD), 'a');
    const guesses = Array.from({ length: 5 }, (_, i) =>
      auth.authenticate(basic('other', `guess-${i}`), 'a'),
    );
    expect((await auth.authenticate(basic('admin', PASSWORD), 'a')).name).toBe('admin');
    expect(tally(await outcomes(guesses))).toEqual({ 401: 5 });
  });

  it('does not count rechecks after a reload', async () => {
    const seen = await outcomes(
      Array.from({ length: 8 }, (_, i) => auth.recheck(basic('admin', `stale-${i}`))),
    );
    expect(tally(seen)).toEqual({ 401: 8 });
    expect((await auth.authenticate(basic('admin', PASSWORD), 'a')).name).toBe('admin');
  });

  it('does not count a request without credentials', async () => {
    const seen = await outcomes(Array.from({ length: 8 }, () => auth.authenticate(undefined, 'a')));
    expect(tally(seen)).toEqual({ 401: 8 });
    expect((await auth.authenticate(basic('admin', PASSWORD), 'a')).name).toBe('admin');
  });
});
