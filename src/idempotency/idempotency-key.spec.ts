import { InvalidRequestError } from '../common/domain-error';
import { bodyDigest, idempotencyKeyOf, isReplayableStatus } from './idempotency-key';

describe('idempotencyKeyOf', () => {
  it('is undefined without the header', () => {
    expect(idempotencyKeyOf(undefined)).toBeUndefined();
  });

  it.each(['a', 'order-2026-11-23/7', '!~', 'x'.repeat(255)])('accepts %j', (key) => {
    expect(idempotencyKeyOf(key)).toBe(key);
  });

  it.each([
    ['empty', ''],
    ['256 characters', 'x'.repeat(256)],
    ['a space', 'a b'],
    ['a tab', 'a\tb'],
    ['a control character', 'a\u0001b'],
    ['DEL', 'a\u007fb'],
    ['non-ASCII', 'clé'],
  ])('refuses %s with a violation naming the header', (_name, key) => {
    expect(() => idempotencyKeyOf(key)).toThrow(InvalidRequestError);
    try {
      idempotencyKeyOf(key);
    } catch (error) {
      expect((error as InvalidRequestError).violations[0].field).toBe('Idempotency-Key');
    }
  });

  it('refuses a header given twice', () => {
    expect(() => idempotencyKeyOf(['a', 'b'])).toThrow(InvalidRequestError);
  });
});

describe('bodyDigest', () => {
  it('ignores the order of fields, at every depth', () => {
    expect(bodyDigest({ a: 1, b: { c: [1, 2], d: null } })).toBe(
      bodyDigest({ b: { d: null, c: [1, 2] }, a: 1 }),
    );
  });

  it('tells different bodies apart', () => {
    const digests = [
      bodyDigest({ a: 1 }),
      bodyDigest({ a: '1' }),
      bodyDigest({ a: [1, 2] }),
      bodyDigest({ a: [2, 1] }),
      bodyDigest({}),
      bodyDigest(undefined),
    ];
    expect(new Set(digests).size).toBe(digests.length);
  });
});

describe('isReplayableStatus', () => {
  it.each([200, 201, 204, 400, 404, 409, 412, 422])('keeps %i', (status) => {
    expect(isReplayableStatus(status)).toBe(true);
  });

  it.each([401, 403, 429, 500, 503, 301])('does not keep %i', (status) => {
    expect(isReplayableStatus(status)).toBe(false);
  });
});
