import { trustedProxies, trustProxyProblem } from './trust-proxy';

describe('TRUST_PROXY', () => {
  it.each([
    ['', undefined],
    ['false', undefined],
    ['0', undefined],
    ['1', 1],
    [' 2 ', 2],
    ['loopback', ['loopback']],
    ['10.0.0.5', ['10.0.0.5']],
    ['10.0.0.0/8, 192.168.1.7, ::1, fd00::/8', ['10.0.0.0/8', '192.168.1.7', '::1', 'fd00::/8']],
    ['loopback,linklocal,uniquelocal', ['loopback', 'linklocal', 'uniquelocal']],
  ])('reads %j as Express trust proxy %j', (value, expected) => {
    expect(trustProxyProblem(value)).toBeUndefined();
    expect(trustedProxies(value)).toEqual(expected);
  });

  it('refuses true, which would believe whatever address a client claims', () => {
    expect(trustProxyProblem('true')).toBe(
      'TRUST_PROXY=true would believe the X-Forwarded-For any client sends: give the number of ' +
        'proxies in front of the service, or their addresses',
    );
  });

  it.each([
    ['my-balancer', '"my-balancer" is not an address, a CIDR range or a range name'],
    ['10.0.0.0/33', '"10.0.0.0/33" has a prefix length outside 0-32'],
    ['fd00::/129', '"fd00::/129" has a prefix length outside 0-128'],
    ['10.0.0.0/x', '"10.0.0.0/x" has a prefix length outside 0-32'],
    ['10.0.0.0/8/8', '"10.0.0.0/8/8" is not an address, a CIDR range or a range name'],
    ['10.0.0.1,,10.0.0.2', '"" is not an address, a CIDR range or a range name'],
    ['-1', '"-1" is not an address, a CIDR range or a range name'],
  ])('refuses %j, naming the entry', (value, problem) => {
    expect(trustProxyProblem(value)).toBe(
      'TRUST_PROXY must be a number of hops, or addresses, CIDR ranges and loopback, linklocal ' +
        `or uniquelocal separated by commas: ${problem}`,
    );
  });
});
