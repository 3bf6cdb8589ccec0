import { queryNamesOf } from './query-names';

describe('queryNamesOf', () => {
  it("keeps each parameter's name and never its value", () => {
    expect(queryNamesOf('/v1/scopes?limit=5&continuationToken=abc')).toBe(
      'limit=REDACTED&continuationToken=REDACTED',
    );
    expect(queryNamesOf('/console/sign-in/callback?code=s3cr3t&state=xyz')).toBe(
      'code=REDACTED&state=REDACTED',
    );
  });

  it('keeps a name that comes twice, or has no value, once each time', () => {
    expect(queryNamesOf('/x?a=1&a=2&flag')).toBe('a=REDACTED&a=REDACTED&flag=REDACTED');
  });

  it('writes names as they were encoded, never a value hidden in a name', () => {
    expect(queryNamesOf('/x?na%20me=1&x%3Dy=2')).toBe('na%20me=REDACTED&x%3Dy=REDACTED');
  });

  it('is nothing without a query string', () => {
    expect(queryNamesOf('/v1/scopes')).toBeUndefined();
    expect(queryNamesOf('/v1/scopes?')).toBeUndefined();
    expect(queryNamesOf(undefined)).toBeUndefined();
  });
});
