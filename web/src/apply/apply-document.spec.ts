import { diffValue, documentMediaType, kindWords, violationWords } from './apply-document';

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

describe('kindWords', () => {
  it('names each kind of change in words, a new one as it comes', () => {
    expect(kindWords('scopePolicy')).toEqual('scope policy');
    expect(kindWords('readerGroup')).toEqual('reader group');
    expect(kindWords('stream')).toEqual('stream');
    expect(kindWords('somethingNew')).toEqual('somethingNew');
  });
});

describe('violationWords', () => {
  it('names the resource, the rule and why', () => {
    const detail = 'The change would make 3 user streams in the scope, over the limit of 2.';
    expect(
      violationWords({ rule: 'maxStreams', detail, resource: 'prn::/scope:s/stream:c' }),
    ).toEqual(`prn::/scope:s/stream:c: maxStreams: ${detail}`);
    expect(violationWords({ rule: 'maxStreams', detail })).toEqual(`maxStreams: ${detail}`);
  });
});
