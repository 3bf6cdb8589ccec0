import { once } from 'node:events';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import {
  base64url,
  exportJWK,
  exportSPKI,
  generateKeyPair,
  JWK,
  JWTPayload,
  SignJWT,
  UnsecuredJWT,
} from 'jose';
import Provider from 'oidc-provider';
import { freePort } from '../../src/startup/free-port';

/** What the service under test is told to expect in `aud` (AUDIENCE of its settings). */
export const AUDIENCE = 'urn:tributary:test';

/** The secret of every confidential test client. */
export const CLIENT_SECRET = 'secret-of-the-test-client';

/** The public client Swagger UI and the console sign in with. */
export const UI_CLIENT_ID = 'tributary-swagger-ui';

/** What a client's (or a signed-in account's) tokens say about it, beside `sub`. */
export interface TokenClaims {
  groups?: string[];
  acl?: string | string[];
}

type KeyObjectOrCryptoKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

/** A signing key of the provider: its private JWK (for the provider) and its key objects. */
export interface SigningKey {
  kid: string;
  jwk: JWK;
  privateKey: KeyObjectOrCryptoKey;
  publicKey: KeyObjectOrCryptoKey;
}

export async function signingKey(kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
  return { kid, jwk, privateKey, publicKey };
}

export interface ProviderOptions {
  /** Client credentials clients by id, with the claims of their tokens. */
  clients: Record<string, TokenClaims>;
  /** Claims of the accounts that sign in through the browser, by login (others get none). */
  accounts?: Record<string, TokenClaims>;
  /** The redirect URIs of the pages' public client (Swagger UI's, the console's), to register it. */
  uiRedirectUri?: string | string[];
}

/** oidc-provider warns at length about its development defaults, which the tests want. */
function quietly<T>(make: () => T): T {
  const { warn, info } = console;
  console.warn = console.info = () => {};
  try {
    return make();
  } finally {
    Object.assign(console, { warn, info });
  }
}

/**
 * A real OpenID Connect provider (`oidc-provider`) in the test's process, on a port of its own:
 * client credentials and the authorization-code flow (its development login page accepts any
 * login), JWT access tokens for {@link AUDIENCE} carrying each client's groups. It can go down
 * and come back on the same port, and change its signing keys (the first one signs), as a real
 * provider does; it counts the requests for its keys.
 */
export class TestOidcProvider {
  /** Requests for the key set (`jwks_uri`) since the start. */
  jwksRequests = 0;
  private readonly server: Server;
  private provider!: Provider;

  private constructor(
    readonly port: number,
    private readonly options: ProviderOptions,
    public keys: SigningKey[],
  ) {
    this.server = createServer((req, res) => this.handle(req, res));
    this.useKeys(keys);
  }

  /** A provider on a free port (not listening yet when `listening` is false). */
  static async start(options: ProviderOptions, listening = true): Promise<TestOidcProvider> {
    const provider = new TestOidcProvider(await freePort(), options, [await signingKey('key-1')]);
    if (listening) await provider.up();
    return provider;
  }

  get issuer(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts answering on its port. */
  async up(): Promise<void> {
    this.server.listen(this.port, '127.0.0.1');
    await once(this.server, 'listening');
  }

  /** Stops answering: connections are refused, open ones closed. */
  async down(): Promise<void> {
    if (!this.server.listening) return;
    const closed = once(this.server, 'close');
    this.server.close();
    this.server.closeAllConnections();
    await closed;
  }

  /** From now on these are its keys; the first one signs. Clients' grants start afresh. */
  useKeys(keys: SigningKey[]): void {
    this.keys = keys;
    this.provider = quietly(() => this.configure(keys));
  }

  /** An access token of a client by the client-credentials grant. */
  async clientToken(clientId: string, secret = CLIENT_SECRET): Promise<string> {
    const response = await fetch(`${this.issuer}/token`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    const body = (await response.json()) as { access_token?: string };
    if (!response.ok || !body.access_token) {
      throw new Error(`no token for ${clientId}: ${response.status} ${JSON.stringify(body)}`);
    }
    return body.access_token;
  }

  /** Claims a token of this provider for the service would carry, for forged tokens. */
  claims(sub: string, extra: JWTPayload = {}): JWTPayload {
    const now = Math.floor(Date.now() / 1000);
    return { iss: this.issuer, aud: AUDIENCE, sub, iat: now, exp: now + 600, ...extra };
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    if (req.url?.startsWith('/jwks')) this.jwksRequests++;
    void this.provider.callback()(req, res);
  }

  private configure(keys: SigningKey[]): Provider {
    const { clients, accounts = {}, uiRedirectUri } = this.options;
    const claimsOf = (token: { clientId?: string; accountId?: string }): TokenClaims =>
      (token.accountId ? accounts[token.accountId] : clients[token.clientId ?? '']) ?? {};
    return new Provider(this.issuer, {
      clients: [
        ...Object.keys(clients).map((client_id) => ({
          client_id,
          client_secret: CLIENT_SECRET,
          grant_types: ['client_credentials'],
          redirect_uris: [],
          response_types: [],
        })),
        ...(uiRedirectUri
          ? [
              {
                client_id: UI_CLIENT_ID,
                token_endpoint_auth_method: 'none',
                grant_types: ['authorization_code'],
                response_types: ['code'],
                redirect_uris: [uiRedirectUri].flat(),
              },
            ]
          : []),
      ],
      jwks: { keys: keys.map((key) => key.jwk) },
      findAccount: (_ctx: unknown, accountId: string) => ({
        accountId,
        claims: () => ({ sub: accountId }),
      }),
      features: {
        clientCredentials: { enabled: true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => AUDIENCE,
          useGrantedResource: () => true,
          getResourceServerInfo: () => ({
            scope: 'tributary',
            audience: AUDIENCE,
            accessTokenFormat: 'jwt',
            accessTokenTTL: 600,
            jwt: { sign: { alg: 'RS256' } },
          }),
        },
      },
      extraTokenClaims: (_ctx: unknown, token: { clientId?: string; accountId?: string }) =>
        claimsOf(token),
      ttl: {
        ClientCredentials: 600,
        AccessToken: 600,
        Interaction: 600,
        Session: 600,
        Grant: 600,
        IdToken: 600,
      },
    } as unknown as ConstructorParameters<typeof Provider>[1]);
  }
}

/** Forged tokens, each wrong in one way, for a provider and its service. */
export const forge = {
  /** Signed with `key` (the provider's own by default): claims and header as given. */
  signed: async (
    provider: TestOidcProvider,
    claims: JWTPayload,
    {
      key = provider.keys[0],
      alg = 'RS256',
      kid = key.kid,
    }: { key?: SigningKey; alg?: string; kid?: string } = {},
  ): Promise<string> =>
    new SignJWT(claims).setProtectedHeader({ alg, kid, typ: 'at+jwt' }).sign(key.privateKey),

  /** `alg: none`, no signature. */
  unsigned: (claims: JWTPayload): string => new UnsecuredJWT(claims).encode(),

  /** HS256 with the provider's public key (in PEM) as the secret: the key-confusion attack. */
  hmacWithPublicKey: async (provider: TestOidcProvider, claims: JWTPayload): Promise<string> => {
    const [key] = provider.keys;
    const secret = new TextEncoder().encode(await exportSPKI(key.publicKey));
    return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', kid: key.kid }).sign(secret);
  },

  /** A real token whose claims were changed after it was signed. */
  tampered: (token: string, claims: JWTPayload): string => {
    const [header, , signature] = token.split('.');
    return [header, base64url.encode(JSON.stringify(claims)), signature].join('.');
  },
};
