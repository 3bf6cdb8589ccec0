import { formatAclEntry, parseAcl } from '../acl';
import { claimAt, identityOf, UnusableClaimsError } from './token-claims';

const GROUP_ACLS = new Map([
  ['readers', parseAcl('prn::/scope:sales,READ;prn::/scope:sales/*,READ', 'group:readers')],
  ['admins', parseAcl('prn::*,READ_UPDATE', 'group:admins')],
]);
const NAMES = { principal: 'sub', groups: 'groups' };

const entries = (acl: ReturnType<typeof identityOf>['acl']) =>
  acl.map((entry) => [formatAclEntry(entry), entry.source]);

describe('claimAt', () => {
  const claims = {
    sub: 'alice',
    realm_access: { roles: ['admins'] },
    'https://example.com/roles': ['readers'],
    list: [{ a: 1 }],
  };

  it('reads a claim by name, inside objects by a dotted path, and by a name with dots', () => {
    expect(claimAt(claims, 'sub')).toBe('alice');
    expect(claimAt(claims, 'realm_access.roles')).toEqual(['admins']);
    expect(claimAt(claims, 'https://example.com/roles')).toEqual(['readers']);
  });

  it('finds nothing where the path leaves the objects', () => {
    expect(claimAt(claims, 'realm_access.groups')).toBeUndefined();
    expect(claimAt(claims, 'sub.length')).toBeUndefined();
    expect(claimAt(claims, 'list.0')).toBeUndefined();
    expect(claimAt(claims, 'toString')).toBeUndefined();
  });
});

describe('identityOf', () => {
  it('gives the claim ACL first, then each group ACL in the order of the groups claim', () => {
    const identity = identityOf(
      { sub: 'svc', groups: ['readers', 'unknown', 'admins'], acl: 'prn::/scope:x,NONE' },
      { ...NAMES, acl: 'acl' },
      GROUP_ACLS,
    );
    expect({ ...identity, acl: entries(identity.acl) }).toEqual({
      name: 'svc',
      groups: ['readers', 'unknown', 'admins'],
      acl: [
        ['prn::/scope:x,NONE', 'claim'],
        ['prn::/scope:sales,READ', 'group:readers'],
        ['prn::/scope:sales/*,READ', 'group:readers'],
        ['prn::*,READ_UPDATE', 'group:admins'],
      ],
    });
  });

  it('reads the principal and groups from the configured claims, an ACL claim as a list', () => {
    const identity = identityOf(
      {
        sub: 'x',
        preferred_username: 'alice',
        realm_access: { roles: ['admins'] },
        perms: ['prn::/,READ', 'prn::/scope:a,READ;prn::/scope:b,READ'],
      },
      { principal: 'preferred_username', groups: 'realm_access.roles', acl: 'perms' },
      GROUP_ACLS,
    );
    expect([identity.name, identity.groups, entries(identity.acl)]).toEqual([
      'alice',
      ['admins'],
      [
        ['prn::/,READ', 'claim'],
        ['prn::/scope:a,READ', 'claim'],
        ['prn::/scope:b,READ', 'claim'],
        ['prn::*,READ_UPDATE', 'group:admins'],
      ],
    ]);
  });

  it('has no groups and no entries when the token has neither claim', () => {
    const identity = identityOf({ sub: 'alice' }, { ...NAMES, acl: 'acl' }, GROUP_ACLS);
    expect([identity.groups, identity.acl]).toEqual([[], []]);
  });

  it.each([
    [{ groups: [] }, NAMES, 'the token has no sub claim'],
    [{ sub: '' }, NAMES, 'the token has no sub claim'],
    [{ sub: 7 }, NAMES, 'the token has no sub claim'],
    [{ sub: 'a', groups: 'admins' }, NAMES, 'the groups claim is not a list of strings'],
    [{ sub: 'a', groups: [1] }, NAMES, 'the groups claim is not a list of strings'],
    [{ sub: 'a', acl: 5 }, { ...NAMES, acl: 'acl' }, 'the acl claim is not an ACL'],
    [{ sub: 'a', acl: 'prn::/,WRITE' }, { ...NAMES, acl: 'acl' }, 'the acl claim: invalid ACL'],
  ])('refuses claims it cannot use: %j', (claims, names, reason) => {
    expect(() => identityOf(claims, names, GROUP_ACLS)).toThrow(UnusableClaimsError);
    expect(() => identityOf(claims, names, GROUP_ACLS)).toThrow(reason);
  });
});
