import { chooseEncoding } from './content-encoding';

describe('chooseEncoding', () => {
  const both = ['br', 'gzip'] as const;

  it.each([
    [undefined, undefined],
    ['', undefined],
    ['identity', undefined],
    ['gzip', 'gzip'],
    ['gzip, deflate, br, zstd', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['BR;Q=0.5', 'br'],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', undefined],
    ['deflate', undefined],
    ['gzip;q=abc', undefined],
  ])('Accept-Encoding %p sends %p', (header, expected) => {
    expect(chooseEncoding(header, both)).toEqual(expected);
  });

  it('sends only an encoding that is stored', () => {
    expect(chooseEncoding('br, gzip', ['gzip'])).toEqual('gzip');
    expect(chooseEncoding('br', [])).toEqual(undefined);
  });
});
