import { clientToken } from './client-token';
import { credentialsOf } from './credentials';
import { CliError, Exit } from './exit-codes';

describe('credentialsOf', () => {
  it('gives the one kind of credentials the options name', () => {
    expect(credentialsOf({})).toEqual({ kind: 'none' });
    expect(credentialsOf({ user: 'u' })).toEqual({ kind: 'basic', user: 'u', password: '' });
    expect(credentialsOf({ token: 't' })).toEqual({ kind: 'token', token: 't' });
    expect(
      credentialsOf({ issuer: 'https://idp', clientId: 'c', clientSecret: 's', tokenScope: 'api' }),
    ).toEqual({
      kind: 'client',
      issuer: 'https://idp',
      clientId: 'c',
      clientSecret: 's',
      scope: 'api',
    });
  });

  it.each([
    [{ user: 'u', token: 't' }, 'give one of --user, --token, not several'],
    [{ token: 't', clientId: 'c' }, 'give one of --token, --client-id, not several'],
    [{ clientId: 'c', clientSecret: 's' }, '--issuer, --client-id and --client-secret go together'],
    [
      { issuer: 'https://idp', clientId: 'c' },
      '--issuer, --client-id and --client-secret go together',
    ],
    [{ password: 'p' }, '--password goes with --user'],
  ])('refuses %j as a usage error', (options, message) => {
    expect(() => credentialsOf(options)).toThrow(message);
    try {
      credentialsOf(options);
    } catch (error) {
      expect((error as CliError).exitCode).toBe(Exit.usage);
    }
  });
});

describe('clientToken', () => {
  const client = { issuer: 'https://idp.example/realms/r/', clientId: 'a b', clientSecret: 's:1' };
  const answer = (status: number, body: object) =>
    Promise.resolve(new Response(JSON.stringify(body), { status }));

  it('finds the token endpoint by discovery, then asks with the client in HTTP Basic', async () => {
    const calls: [string, RequestInit | undefined][] = [];
    const token = await clientToken({ ...client, scope: 'api://x/.default' }, (url, init) => {
      calls.push([url, init]);
      return calls.length === 1
        ? answer(200, { token_endpoint: 'https://idp.example/token' })
        : answer(200, { access_token: 'the-token', token_type: 'Bearer' });
    });
    expect(token).toBe('the-token');
    expect(calls.map(([url]) => url)).toEqual([
      'https://idp.example/realms/r/.well-known/openid-configuration',
      'https://idp.example/token',
    ]);
    const init = calls[1][1]!;
    expect([init.method, init.body]).toEqual([
      'POST',
      'grant_type=client_credentials&scope=api%3A%2F%2Fx%2F.default',
    ]);
    const basic = (init.headers as Record<string, string>).Authorization.replace('Basic ', '');
    expect(Buffer.from(basic, 'base64').toString()).toBe('a%20b:s%3A1');
  });

  it('tells what the provider said when it refuses, as an authentication failure', async () => {
    const refused = clientToken(client, (url) =>
      url.endsWith('configuration')
        ? answer(200, { token_endpoint: 'https://idp.example/token' })
        : answer(401, {
            error: 'invalid_client',
            error_description: 'client authentication failed',
          }),
    );
    await expect(refused).rejects.toThrow(
      'https://idp.example/realms/r/ gave client a b no token: invalid_client: client authentication failed',
    );
    await expect(refused).rejects.toMatchObject({ exitCode: Exit.auth });
  });

  it('is unavailable when the provider cannot be reached or has no token endpoint', async () => {
    await expect(
      clientToken(client, () => Promise.reject(new TypeError('fetch failed'))),
    ).rejects.toMatchObject({ exitCode: Exit.unavailable });
    await expect(clientToken(client, () => answer(404, {}))).rejects.toMatchObject({
      exitCode: Exit.unavailable,
    });
  });

  it('is unavailable when the token endpoint fails, and says with what status', async () => {
    const failed = clientToken(client, (url) =>
      url.endsWith('configuration')
        ? answer(200, { token_endpoint: 'https://idp.example/token' })
        : answer(503, {}),
    );
    await expect(failed).rejects.toThrow(
      'https://idp.example/realms/r/ gave client a b no token: 503',
    );
    await expect(failed).rejects.toMatchObject({ exitCode: Exit.unavailable });
  });
});
