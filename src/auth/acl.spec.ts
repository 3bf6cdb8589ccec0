import fc from 'fast-check';
import { covers, decide, InvalidAclError, parseAcl, Permission, permissionOn } from './acl';

const { NONE, READ, READ_UPDATE } = Permission;

describe('parseAcl and permissionOn', () => {
  it('grants what the first matching entry says, and NONE when nothing matches', () => {
    const acl = parseAcl(
      'prn::/scope:sales/stream:secret,NONE;prn::/scope:sales/*,READ_UPDATE;prn::/scope:sales,READ',
    );
    expect(permissionOn(acl, 'prn::/scope:sales/stream:secret')).toBe(NONE);
    expect(permissionOn(acl, 'prn::/scope:sales/stream:orders')).toBe(READ_UPDATE);
    expect(permissionOn(acl, 'prn::/scope:sales/reader-group:g')).toBe(READ_UPDATE);
    expect(permissionOn(acl, 'prn::/scope:sales')).toBe(READ);
    expect(permissionOn(acl, 'prn::/scope:other')).toBe(NONE);
    expect(permissionOn(acl, 'prn::/')).toBe(NONE);
  });

  it('reads * as any run of characters, and nothing else as special', () => {
    const acl = parseAcl('prn::*,READ');
    expect(permissionOn(acl, 'prn::/')).toBe(READ);
    expect(permissionOn(acl, 'prn::/scope:a/stream:b')).toBe(READ);
    const prefix = parseAcl('prn::/scope:sal*,READ');
    expect(permissionOn(prefix, 'prn::/scope:sales')).toBe(READ);
    expect(permissionOn(prefix, 'prn::/scope:salt/stream:x')).toBe(READ);
    expect(permissionOn(prefix, 'prn::/scope:xsales')).toBe(NONE);
    const dotted = parseAcl('prn::/scope:a.b,READ');
    expect(permissionOn(dotted, 'prn::/scope:a.b')).toBe(READ);
    expect(permissionOn(dotted, 'prn::/scope:aXb')).toBe(NONE);
  });

  it('matches * as a regular expression .* would, without its backtracking', () => {
    const escaped = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
    const asRegExp = (pattern: string) =>
      new RegExp(`^${pattern.split('*').map(escaped).join('.*')}$`);
    const text = (chars: string[], maxLength: number) =>
      fc.string({ unit: fc.constantFrom(...chars), maxLength });
    fc.assert(
      fc.property(
        text(['a', 'b', '.', '*'], 8).filter((p) => p.length > 0),
        text(['a', 'b', '.'], 12),
        (pattern, resource) => {
          const [entry] = parseAcl(`${pattern},READ`);
          expect(entry.matches(resource)).toBe(asRegExp(pattern).test(resource));
        },
      ),
      { numRuns: 2000 },
    );
    // What a regular expression takes seconds for: four stars over names as long as they may be.
    const [entry] = parseAcl('prn::/scope:*-*-*-*-prod,READ');
    const long = `prn::/scope:${'-'.repeat(255)}/stream:${'-'.repeat(255)}`;
    expect(entry.matches(long)).toBe(false);
    expect(entry.matches(`${long}-prod`)).toBe(true);
  });

  it('skips blank entries and refuses malformed ones', () => {
    expect(parseAcl(' prn::/,READ ; ;')).toHaveLength(1);
    for (const bad of ['prn::/', 'prn::/,WRITE', ',READ', 'prn::/,read']) {
      expect(() => parseAcl(bad)).toThrow(InvalidAclError);
    }
  });
});

describe('covers', () => {
  it('orders NONE < READ < READ_UPDATE', () => {
    expect(covers(READ_UPDATE, READ)).toBe(true);
    expect(covers(READ, READ)).toBe(true);
    expect(covers(READ, READ_UPDATE)).toBe(false);
    expect(covers(NONE, READ)).toBe(false);
    expect(covers(NONE, NONE)).toBe(true);
  });
});

describe('decide', () => {
  const acl = [
    ...parseAcl('prn::/scope:sales/stream:secret,NONE', 'claim'),
    ...parseAcl('prn::/scope:sales/*,READ', 'group:readers'),
    ...parseAcl('prn::*,READ_UPDATE'),
  ];

  it('answers from the first matching entry, naming it and where it comes from', () => {
    expect(decide(acl, 'prn::/scope:sales/stream:orders', READ)).toEqual({
      allowed: true,
      matchedEntry: 'prn::/scope:sales/*,READ',
      source: 'group:readers',
    });
    expect(decide(acl, 'prn::/scope:sales/stream:orders', READ_UPDATE)).toEqual({
      allowed: false,
      matchedEntry: 'prn::/scope:sales/*,READ',
      source: 'group:readers',
    });
    expect(decide(acl, 'prn::/scope:sales/stream:secret', READ)).toEqual({
      allowed: false,
      matchedEntry: 'prn::/scope:sales/stream:secret,NONE',
      source: 'claim',
    });
    expect(decide(acl, 'prn::/', READ_UPDATE)).toEqual({
      allowed: true,
      matchedEntry: 'prn::*,READ_UPDATE',
    });
  });

  it('refuses what no entry matches, and names no entry', () => {
    expect(decide(parseAcl('prn::/scope:a,READ'), 'prn::/scope:b', READ)).toEqual({
      allowed: false,
    });
    expect(decide([], 'prn::/', NONE)).toEqual({ allowed: true });
  });
});
