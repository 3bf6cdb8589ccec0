import { explainRefusal, missingWords, resourceWords, sourceWords } from './access-words';

describe('resourceWords', () => {
  it.each([
    ['prn::/', 'the root (the list of scopes)'],
    ['prn::/scope:sales', 'scope sales'],
    ['prn::/scope:sales/stream:orders', 'stream sales/orders'],
    ['prn::/scope:sales/reader-group:billing', 'reader group sales/billing'],
    ['prn::/scope:sales/*', 'prn::/scope:sales/*'],
    ['something else', 'something else'],
  ])('%s is %s', (resource, words) => {
    expect(resourceWords(resource)).toBe(words);
  });
});

describe('missingWords', () => {
  it.each([
    [
      { permission: 'READ_UPDATE', resource: 'prn::/scope:sales' },
      'READ_UPDATE (read and change) on scope sales (prn::/scope:sales)',
    ],
    [
      { permission: 'READ', resource: 'prn::/' },
      'READ (read) on the root (the list of scopes) (prn::/)',
    ],
    [
      { permission: 'OTHER', resource: 'prn::/scope:a/stream:b' },
      'OTHER on stream a/b (prn::/scope:a/stream:b)',
    ],
  ])('%j is %s', (missing, words) => {
    expect(missingWords(missing)).toBe(words);
  });
});

describe('sourceWords', () => {
  it.each([
    ['account', 'your account'],
    ['claim', "your token's ACL claim"],
    ['group:sales-readers', 'your group sales-readers'],
    ['something new', 'something new'],
    [undefined, undefined],
  ])('%s is %s', (source, words) => {
    expect(sourceWords(source)).toBe(words);
  });
});

describe('explainRefusal', () => {
  const missing = { permission: 'READ_UPDATE', resource: 'prn::/scope:sales' };

  it('names the entry that decided and what it gives', () => {
    expect(
      explainRefusal(missing, {
        allowed: false,
        matchedEntry: 'prn::/scope:sales,READ',
        source: 'group:sales-readers',
      }),
    ).toBe(
      'For scope sales, the first entry of your access that names it is prn::/scope:sales,READ ' +
        '(from your group sales-readers), which gives only READ.',
    );
  });

  it('names an entry without a source', () => {
    expect(
      explainRefusal(missing, { allowed: false, matchedEntry: 'prn::/scope:sales/*,READ' }),
    ).toBe(
      'For scope sales, the first entry of your access that names it is prn::/scope:sales/*,READ, which gives only READ.',
    );
  });

  it('says when no entry names the resource', () => {
    expect(explainRefusal({ permission: 'READ', resource: 'prn::/' }, { allowed: false })).toBe(
      'No entry of your access names the root (the list of scopes).',
    );
  });

  it('says to try again when the check allows it now (the access changed since)', () => {
    expect(
      explainRefusal(missing, {
        allowed: true,
        matchedEntry: 'prn::*,READ_UPDATE',
        source: 'account',
      }),
    ).toBe(
      'Your access now gives READ_UPDATE on scope sales by prn::*,READ_UPDATE (from your account): try again.',
    );
    expect(explainRefusal(missing, { allowed: true })).toBe(
      'Your access now gives READ_UPDATE on scope sales: try again.',
    );
  });
});
