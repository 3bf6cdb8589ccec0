import { diffValue, documentMediaType } from './apply-document';

describe('documentMediaType', () => {
  it.each([
    ['{"scopes": []}', 'application/json'],
    ['  {"scopes": [{"scopeName": "s"}]}\n', 'application/json'],
    ['scopes:\n  - scopeName: s\n', 'application/yaml'],
    ['{scopes: []}', 'application/yaml'],
    ['', 'application/yaml'],
  ])('%p is %p', (text, type) => {
    expect(documentMediaType(text)).toEqual(type);
  });
});

describe('diffValue', () => {
  it('shows an absent value and JSON otherwise', () => {
    expect(diffValue(undefined)).toEqual('(none)');
    expect(diffValue(4)).toEqual('4');
    expect(diffValue({ type: 'LIMITED_DAYS', value: 7 })).toEqual(
      '{"type":"LIMITED_DAYS","value":7}',
    );
  });
});
