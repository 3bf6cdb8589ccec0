import { formatAclEntry } from './acl';
import { InvalidGroupAclsFileError, parseGroupAcls } from './group-acls-file';

describe('the group ACLs file', () => {
  it('reads each group ACL, its entries sourced from the group', () => {
    const groups = parseGroupAcls(
      [
        '# who may do what',
        'groups:',
        '  admins: "prn::*,READ_UPDATE"',
        '  sales-readers: "prn::/scope:sales,READ;prn::/scope:sales/*,READ"',
        '  42: "prn::/,READ"',
      ].join('\n'),
    );
    expect(
      [...groups].map(([name, acl]) => [name, acl.map((e) => [formatAclEntry(e), e.source])]),
    ).toEqual([
      ['admins', [['prn::*,READ_UPDATE', 'group:admins']]],
      [
        'sales-readers',
        [
          ['prn::/scope:sales,READ', 'group:sales-readers'],
          ['prn::/scope:sales/*,READ', 'group:sales-readers'],
        ],
      ],
      ['42', [['prn::/,READ', 'group:42']]],
    ]);
  });

  it('reads an empty file, or no groups, as no group ACLs', () => {
    expect(parseGroupAcls('').size).toBe(0);
    expect(parseGroupAcls('# nothing yet\n').size).toBe(0);
    expect(parseGroupAcls('groups:\n').size).toBe(0);
  });

  it.each([
    ['groups:\n  a: "prn::/,READ"\n  b: "prn::/,WRITE"\n', 3, /group "b": invalid ACL entry/],
    ['groups:\n  a: "prn::/,READ"\n  a: "prn::/,READ"\n', 3, /unique/],
    ['groups:\n  a: [1, 2]\n', 2, /ACL of group "a" must be a string/],
    ['groups: "prn::/,READ"\n', 1, /must map group names/],
    ['\n\nroles:\n  a: "prn::/,READ"\n', 3, /unknown key "roles"/],
    ['- a\n- b\n', 1, /expected a mapping/],
    ['groups:\n  a: "prn::/,READ\n', 3, /quote/],
  ])('names the line of a mistake: %j', (text, line, message) => {
    expect(() => parseGroupAcls(text)).toThrow(InvalidGroupAclsFileError);
    expect(() => parseGroupAcls(text)).toThrow(new RegExp(`^line ${line}: `));
    expect(() => parseGroupAcls(text)).toThrow(message);
  });
});
