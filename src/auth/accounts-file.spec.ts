import { formatAccount, InvalidAccountsFileError, parseAccounts } from './accounts-file';
import { hashPassword, parsePasswordHash, verifyPassword } from './password-hash';

describe('the accounts file', () => {
  let hash: string;

  beforeAll(async () => {
    hash = await hashPassword('correct horse');
  });

  it('reads user:hash:acl lines, keeping the colons of the ACL, skipping comments', () => {
    const accounts = parseAccounts(
      `# admins\n${formatAccount('admin', hash, 'prn::*,READ_UPDATE')}\n\n` +
        `${formatAccount('reader', hash, 'prn::/scope:a,READ;prn::/scope:a/*,READ')}\n`,
    );
    expect([...accounts.keys()]).toEqual(['admin', 'reader']);
    expect(accounts.get('reader')!.acl.map((entry) => entry.resource)).toEqual([
      'prn::/scope:a',
      'prn::/scope:a/*',
    ]);
  });

  it('names the line of every mistake', () => {
    const cases = [
      'admin',
      `admin:${hash}`,
      'admin:plaintext:prn::*,READ',
      `bad name:${hash}:prn::*,READ`,
      `admin:${hash}:prn::*,WRITE`,
      `admin:${hash}:prn::*,READ\nadmin:${hash}:prn::*,READ`,
    ];
    for (const text of cases) {
      expect(() => parseAccounts(text)).toThrow(InvalidAccountsFileError);
      expect(() => parseAccounts(text)).toThrow(/^line \d+: /);
    }
  });
});

describe('password hashes', () => {
  it('verify the password they were made from, and no other', async () => {
    const stored = await hashPassword('s3cret-pass');
    expect(stored).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[^$:]+\$[^$:]+$/);
    expect(stored).not.toContain('s3cret-pass');
    expect(await verifyPassword('s3cret-pass', parsePasswordHash(stored))).toBe(true);
    expect(await verifyPassword('s3cret-pasS', parsePasswordHash(stored))).toBe(false);
    expect(await hashPassword('s3cret-pass')).not.toBe(stored);
  });
});
