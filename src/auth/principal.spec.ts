import { parseAcl, Permission } from './acl';
import { PermissionDeniedError } from './auth.errors';
import { ANONYMOUS_PRINCIPAL, mayRead, Principal } from './principal';

const { READ, READ_UPDATE } = Permission;

describe('Principal', () => {
  const reader = new Principal(
    'reader',
    'basic',
    parseAcl('prn::/scope:pub,READ;prn::/scope:pub/*,READ'),
  );

  it('lacks what its ACL does not grant, each once, in the order asked', () => {
    expect(
      reader.lacks([
        { permission: READ, resource: 'prn::/scope:pub/stream:a' },
        { permission: READ, resource: 'prn::/scope:secret/stream:s' },
        { permission: READ_UPDATE, resource: 'prn::/scope:pub' },
        { permission: READ, resource: 'prn::/scope:secret/stream:s' },
      ]),
    ).toEqual([
      { permission: READ, resource: 'prn::/scope:secret/stream:s' },
      { permission: READ_UPDATE, resource: 'prn::/scope:pub' },
    ]);
    expect(reader.lacks([])).toEqual([]);
    expect(ANONYMOUS_PRINCIPAL.lacks([{ permission: READ_UPDATE, resource: 'prn::/' }])).toEqual(
      [],
    );
  });

  it('may read what it is granted READ on; without a principal, everything', () => {
    expect(mayRead(reader, 'prn::/scope:pub/reader-group:g')).toBe(true);
    expect(mayRead(reader, 'prn::/scope:secret/reader-group:g')).toBe(false);
    expect(mayRead(undefined, 'prn::/scope:secret/reader-group:g')).toBe(true);
  });
});

describe('PermissionDeniedError', () => {
  it('names every missing permission, in its words and in `missing`', () => {
    const one = [{ permission: 'READ', resource: 'prn::/' }];
    expect(new PermissionDeniedError(one).message).toBe('READ on prn::/ is required');
    const two = [...one, { permission: 'READ_UPDATE', resource: 'prn::/scope:a' }];
    const error = new PermissionDeniedError(two);
    expect(error.message).toBe('READ on prn::/, READ_UPDATE on prn::/scope:a are required');
    expect(error.missing).toEqual(two);
  });
});
