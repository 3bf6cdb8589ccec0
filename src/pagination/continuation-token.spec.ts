import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { InvalidTokenError, issueToken, readToken } from './continuation-token';

describe('continuation tokens', () => {
  const key = randomBytes(32);
  const list = 'streams:sales:tag=billing';

  it('carries a position back to the list that issued it', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (position) => {
        expect(readToken(key, list, issueToken(key, list, position))).toEqual(
          JSON.parse(JSON.stringify(position)),
        );
      }),
    );
  });

  it('refuses a token issued for another list, or under another key', () => {
    const token = issueToken(key, list, { name: 'orders' });
    expect(() => readToken(key, 'streams:sales:all', token)).toThrow(
      new InvalidTokenError('token was issued for another list'),
    );
    expect(() => readToken(randomBytes(32), list, token)).toThrow(
      new InvalidTokenError('token was not issued by this service'),
    );
  });

  it('refuses tampered, truncated and made-up tokens', () => {
    const token = issueToken(key, list, { name: 'orders' });
    const [body, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ l: list, a: { name: 'zzz' } })).toString(
      'base64url',
    );
    for (const bad of [
      `${forged}.${signature}`,
      token.slice(0, -2),
      body,
      `${body}.`,
      `.${signature}`,
      `${token}.extra`,
      'abc',
      '',
    ]) {
      expect(() => readToken(key, list, bad)).toThrow(InvalidTokenError);
    }
  });

  it('refuses any change to a token', () => {
    const token = issueToken(key, list, { name: 'orders', n: 42 });
    fc.assert(
      fc.property(
        fc.nat({ max: token.length - 1 }),
        fc.constantFrom(...'ABCabc012-_.'.split('')),
        (at, char) => {
          fc.pre(token[at] !== char);
          const changed = token.slice(0, at) + char + token.slice(at + 1);
          expect(() => readToken(key, list, changed)).toThrow(InvalidTokenError);
        },
      ),
    );
  });
});
