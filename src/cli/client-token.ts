import { CliError, Exit, unreachable } from './exit-codes';
import type { ClientCredentials } from './credentials';

type Fetch = (url: string, init?: RequestInit) => Promise<Response>;

async function json(fetch: Fetch, url: string, init?: RequestInit) {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    throw unreachable(url, error);
  }
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  return { response, body };
}

/**
 * An access token for a client of the provider: its token endpoint from the discovery document
 * of `issuer`, then the client-credentials grant with the client's id and secret in HTTP Basic
 * (RFC 6749 section 2.3.1).
 */
export async function clientToken(client: ClientCredentials, fetch: Fetch): Promise<string> {
  const discovery = `${client.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  const found = await json(fetch, discovery);
  const endpoint = found.body.token_endpoint;
  if (!found.response.ok || typeof endpoint !== 'string') {
    throw new CliError(
      `${discovery} answered ${found.response.status} without a token_endpoint`,
      Exit.unavailable,
    );
  }
  const basic = [client.clientId, client.clientSecret].map(encodeURIComponent).join(':');
  const form = new URLSearchParams({ grant_type: 'client_credentials' });
  if (client.scope) form.set('scope', client.scope);
  const { response, body } = await json(fetch, endpoint, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Accept: 'application/json',
      Authorization: `Basic ${Buffer.from(basic).toString('base64')}`,
    },
    body: form.toString(),
  });
  if (response.ok && typeof body.access_token === 'string') return body.access_token;
  const said = [body.error, body.error_description].filter((part) => typeof part === 'string');
  throw new CliError(
    `${client.issuer} gave client ${client.clientId} no token: ${said.join(': ') || response.status}`,
    response.status >= 500 ? Exit.unavailable : Exit.auth,
  );
}
