import type { Node } from 'yaml';
import { yaml } from '../common/required-on-first-use';
import { AclEntry, parseAcl } from './acl';

export class InvalidGroupAclsFileError extends Error {}

/** The ACL of each group a token may name, by group name. */
export type GroupAcls = ReadonlyMap<string, readonly AclEntry[]>;

/**
 * The group ACLs file (docs/extensions.md section 9): YAML `groups: {<group>: "<acl>"}`, each
 * ACL in the accounts file's form. A mistake is told with the line it is on.
 */
export function parseGroupAcls(text: string): GroupAcls {
  const { isMap, isScalar, LineCounter, parseDocument } = yaml();
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const fail = (node: Node | number | null | undefined, message: string): never => {
    const offset = typeof node === 'number' ? node : (node?.range?.[0] ?? 0);
    throw new InvalidGroupAclsFileError(`line ${lines.linePos(offset).line}: ${message}`);
  };
  const [error] = document.errors;
  if (error) fail(error.pos[0], error.message.split('\n')[0]);

  const groups = new Map<string, AclEntry[]>();
  const root = document.contents;
  if (root === null) return groups;
  if (!isMap(root)) return fail(root, 'expected a mapping with the key "groups"');
  for (const { key, value } of root.items) {
    if (!isScalar(key) || key.value !== 'groups') {
      fail(key, `unknown key ${JSON.stringify(String(key))}: expected "groups"`);
    }
    if (value === null || (isScalar(value) && value.value === null)) continue;
    if (!isMap(value)) return fail(value, '"groups" must map group names to ACLs');
    for (const pair of value.items) {
      const name = isScalar(pair.key) ? pair.key.value : undefined;
      if (typeof name !== 'string' && typeof name !== 'number') {
        return fail(pair.key, 'a group name must be a string');
      }
      const acl = isScalar(pair.value) ? pair.value.value : undefined;
      if (typeof acl !== 'string') {
        return fail(pair.value ?? pair.key, `the ACL of group "${name}" must be a string`);
      }
      try {
        groups.set(String(name), parseAcl(acl, `group:${name}`));
      } catch (cause) {
        fail(pair.value, `group "${name}": ${(cause as Error).message}`);
      }
    }
  }
  return groups;
}
