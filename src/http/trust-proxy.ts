import { isIP } from 'node:net';

/** Express's names for address ranges (`proxy-addr`): 127.0.0.0/8 and ::1, and so on. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * What Express's `trust proxy` setting is given for TRUST_PROXY: a number of hops, or the
 * addresses, ranges (CIDR) and range names of the proxies whose `X-Forwarded-*` headers are
 * believed. Undefined when nothing is trusted: the socket's peer is the client.
 */
export type TrustedProxies = number | string[] | undefined;

function entryProblem(entry: string): string | undefined {
  if (RANGE_NAMES.has(entry)) return undefined;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0)
    return `"${entry}" is not an address, a CIDR range or a range name`;
  if (prefix === undefined) return undefined;
  const bits = family === 4 ? 32 : 128;
  if (!/^\d+$/.test(prefix) || Number(prefix) > bits) {
    return `"${entry}" has a prefix length outside 0-${bits}`;
  }
  return undefined;
}

/** Why TRUST_PROXY cannot be used, or undefined when it can. */
export function trustProxyProblem(value: string): string | undefined {
  const text = value.trim();
  if (text === 'true') {
    return (
      'TRUST_PROXY=true would believe the X-Forwarded-For any client sends: give the number of ' +
      'proxies in front of the service, or their addresses'
    );
  }
  if (text === '' || text === 'false' || /^\d+$/.test(text)) return undefined;
  const problems = text
    .split(',')
    .map((entry) => entryProblem(entry.trim()))
    .filter((problem) => problem !== undefined);
  return problems.length === 0
    ? undefined
    : `TRUST_PROXY must be a number of hops, or addresses, CIDR ranges and loopback, linklocal or uniquelocal separated by commas: ${problems.join('; ')}`;
}

/** The `trust proxy` setting of a valid TRUST_PROXY (see {@link trustProxyProblem}). */
export function trustedProxies(value: string | undefined): TrustedProxies {
  const text = (value ?? '').trim();
  if (text === '' || text === 'false' || text === '0') return undefined;
  if (/^\d+$/.test(text)) return Number(text);
  return text.split(',').map((entry) => entry.trim());
}
