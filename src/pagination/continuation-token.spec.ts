import { createHmac, createSecretKey, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { InvalidTokenError, issueToken, readToken, tokenKey } from './continuation-token';

describe('continuation tokens', () => {
  const stored = randomBytes(32);
  const key = tokenKey(stored);
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

  it('is read by any instance that holds the same stored key', () => {
    const token = issueToken(key, list, 'orders');
    expect(readToken(tokenKey(Buffer.from(stored)), list, token)).toBe('orders');
  });

  it('shows nothing of the position: not its text, not its length, not twice the same', () => {
    const names = ['a', 'orders', 'x'.repeat(258), `_MARK_RG${'g'.repeat(250)}`];
    const tokens = names.map((name) => issueToken(key, list, name));
    for (const [i, token] of tokens.entries()) {
      expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
      const bytes = Buffer.from(token, 'base64url').toString('latin1');
      for (const text of ['orders', 'xxxxxx', 'gggggg', '_MARK']) {
        expect([i, bytes.includes(text) || token.includes(text)]).toEqual([i, false]);
      }
    }
    expect(new Set(tokens.map((token) => token.length)).size).toBe(1);
    expect(issueToken(key, list, 'orders')).not.toBe(issueToken(key, list, 'orders'));
  });

  it('refuses a token issued for another list, or under another key', () => {
    const token = issueToken(key, list, { name: 'orders' });
    expect(() => readToken(key, 'streams:sales:all', token)).toThrow(InvalidTokenError);
    expect(() => readToken(tokenKey(randomBytes(32)), list, token)).toThrow(InvalidTokenError);
    // The stored key itself (the one tokens were once signed with) is not the key either.
    expect(() => readToken(createSecretKey(stored), list, token)).toThrow(InvalidTokenError);
  });

  it('refuses the tokens of the earlier format, signed but readable, even with the right key', () => {
    const body = Buffer.from(JSON.stringify({ l: list, a: { name: 'orders' } })).toString(
      'base64url',
    );
    const mac = createHmac('sha256', stored).update(body).digest().subarray(0, 16);
    const old = `${body}.${mac.toString('base64url')}`;
    expect(() => readToken(key, list, old)).toThrow(new InvalidTokenError('malformed token'));
    expect(() => readToken(key, list, body)).toThrow(InvalidTokenError);
  });

  it('refuses tampered, truncated, lengthened and made-up tokens', () => {
    const token = issueToken(key, list, { name: 'orders' });
    const bytes = Buffer.from(token, 'base64url');
    const withByte = (at: number, value: number) => {
      const copy = Buffer.from(bytes);
      copy[at] = value;
      return copy.toString('base64url');
    };
    for (const bad of [
      withByte(0, 2), // another format
      withByte(5, bytes[5] ^ 1), // the IV
      withByte(20, bytes[20] ^ 1), // the position
      withByte(bytes.length - 1, bytes[bytes.length - 1] ^ 1), // the tag
      bytes.subarray(0, bytes.length - 4).toString('base64url'), // a tag cut short
      Buffer.concat([bytes, Buffer.alloc(260)]).toString('base64url'),
      token.slice(0, -2),
      `${token}=`,
      `${token}.`,
      'abc',
      '',
      randomBytes(bytes.length).toString('base64url'),
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
