import { nextPageLink } from './next-page-link';

describe('nextPageLink', () => {
  it('keeps path and filters, and sets the token and the limit', () => {
    expect(
      nextPageLink('/v1/scopes/s/streams?filter_type=tag&filter_value=a%20b&limit=5', 'x.y', 5),
    ).toBe(
      '</v1/scopes/s/streams?filter_type=tag&filter_value=a+b&limit=5&continuationToken=x.y>; rel="next"',
    );
  });

  it('replaces the previous token and adds the limit a token alone implied', () => {
    expect(nextPageLink('/v1/scopes?continuationToken=old', 'new', 100)).toBe(
      '</v1/scopes?continuationToken=new&limit=100>; rel="next"',
    );
  });
});
