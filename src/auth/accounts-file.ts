import { AclEntry, parseAcl } from './acl';
import { parsePasswordHash } from './password-hash';

export interface Account {
  name: string;
  passwordHash: string;
  acl: AclEntry[];
}

export class InvalidAccountsFileError extends Error {}

const NAME = /^[A-Za-z0-9._@-]{1,128}$/;

/**
 * The reference's accounts file: one `user:passwordhash:acl` line per account (the ACL keeps
 * any further colons: `prn::/...`); blank lines and `#` comments are skipped.
 */
export function parseAccounts(text: string): Map<string, Account> {
  const accounts = new Map<string, Account>();
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const where = `line ${index + 1}`;
    const first = line.indexOf(':');
    const second = line.indexOf(':', first + 1);
    if (first <= 0 || second < 0) {
      throw new InvalidAccountsFileError(`${where}: expected user:passwordhash:acl`);
    }
    const account = {
      name: line.slice(0, first),
      passwordHash: line.slice(first + 1, second),
      acl: [] as AclEntry[],
    };
    try {
      if (!NAME.test(account.name)) throw new Error(`invalid user name '${account.name}'`);
      parsePasswordHash(account.passwordHash);
      account.acl = parseAcl(line.slice(second + 1), 'account');
    } catch (error) {
      throw new InvalidAccountsFileError(`${where}: ${(error as Error).message}`);
    }
    if (accounts.has(account.name)) {
      throw new InvalidAccountsFileError(`${where}: user '${account.name}' appears twice`);
    }
    accounts.set(account.name, account);
  });
  return accounts;
}

/** One line of the accounts file. */
export function formatAccount(name: string, passwordHash: string, acl: string): string {
  if (!NAME.test(name)) throw new InvalidAccountsFileError(`invalid user name '${name}'`);
  parseAcl(acl);
  return `${name}:${passwordHash}:${acl}`;
}
