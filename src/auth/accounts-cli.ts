import { appendFile, readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { formatAccount, parseAccounts } from './accounts-file';
import { hashPassword } from './password-hash';

const USAGE = `usage: npm run accounts -- add NAME --acl "RESOURCE,PERMISSION;..." [--file PATH]

Appends an account to the accounts file (--file, or AUTH_ACCOUNTS_FILE), its password hashed
with scrypt. The password is asked for (not echoed), or read from the first line of standard
input when that is not a terminal. Example ACLs: "prn::*,READ_UPDATE" (everything),
"prn::/scope:sales,READ;prn::/scope:sales/*,READ" (read one scope and all in it).`;

/** Reads a line from a terminal without echoing it. */
function promptHidden(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const input = process.stdin;
    process.stdout.write(question);
    input.setRawMode(true);
    input.resume();
    let typed = '';
    const onData = (chunk: Buffer): void => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n') {
          input.setRawMode(false);
          input.pause();
          input.off('data', onData);
          process.stdout.write('\n');
          return resolve(typed);
        }
        if (char === '\u0003') return reject(new Error('cancelled'));
        typed = char === '\u007f' ? typed.slice(0, -1) : typed + char;
      }
    };
    input.on('data', onData);
  });
}

async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0];
  }
  const password = await promptHidden('Password: ');
  if ((await promptHidden('Password again: ')) !== password) {
    throw new Error('the passwords differ');
  }
  return password;
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { acl: { type: 'string' }, file: { type: 'string' }, help: { type: 'boolean' } },
  });
  const [command, name] = positionals;
  const file = values.file ?? process.env.AUTH_ACCOUNTS_FILE;
  if (values.help || command !== 'add' || !name || !values.acl || !file) {
    throw new Error(USAGE);
  }
  const existing = await readFile(file, 'utf8').catch(() => '');
  if (parseAccounts(existing).has(name))
    throw new Error(`${file} already has an account '${name}'`);
  const password = await readPassword();
  if (password.length < 8) throw new Error('the password needs at least 8 characters');
  const line = formatAccount(name, await hashPassword(password), values.acl);
  const separator = existing === '' || existing.endsWith('\n') ? '' : '\n';
  await appendFile(file, `${separator}${line}\n`, { mode: 0o600 });
  process.stdout.write(`added '${name}' to ${file}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
