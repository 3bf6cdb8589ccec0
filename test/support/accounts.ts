import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { formatAccount } from '../../src/auth/accounts-file';
import { hashPassword } from '../../src/auth/password-hash';

export const PASSWORD = 'password-of-the-test';

/** Writes an accounts file of `acl` by user name, all with {@link PASSWORD}; returns its path. */
export async function writeAccounts(accounts: Record<string, string>): Promise<string> {
  const hash = await hashPassword(PASSWORD);
  const file = join(await mkdtemp(join(tmpdir(), 'tributary-accounts-')), 'accounts');
  const lines = Object.entries(accounts).map(([name, acl]) => formatAccount(name, hash, acl));
  await writeFile(file, `${lines.join('\n')}\n`, { mode: 0o600 });
  return file;
}

/** The `Authorization` header of `user` with `password`. */
export const basic = (user: string, password = PASSWORD): string =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** Writes a group ACLs file (`groups: {<group>: "<acl>"}`); returns its path. */
export async function writeGroupAcls(groups: Record<string, string>): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'tributary-groups-')), 'groups.yaml');
  await writeFile(file, stringify({ groups }));
  return file;
}

/** The `Authorization` header of a bearer token. */
export const bearer = (token: string): string => `Bearer ${token}`;
