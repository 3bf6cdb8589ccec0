/** The reference's permissions, in increasing power. */
export enum Permission {
  NONE = 'NONE',
  READ = 'READ',
  READ_UPDATE = 'READ_UPDATE',
}

const POWER: Record<Permission, number> = {
  [Permission.NONE]: 0,
  [Permission.READ]: 1,
  [Permission.READ_UPDATE]: 2,
};

/** Whether `granted` is at least `needed`. */
export const covers = (granted: Permission, needed: Permission): boolean =>
  POWER[granted] >= POWER[needed];

export interface AclEntry {
  /** A resource such as `prn::/scope:sales`, where `*` stands for any run of characters. */
  resource: string;
  permission: Permission;
  matcher: RegExp;
}

export class InvalidAclError extends Error {}

const escapeRegExp = (text: string): string => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

/** Parses the reference's `resource,PERMISSION;resource,PERMISSION` format. */
export function parseAcl(text: string): AclEntry[] {
  return text
    .split(';')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0)
    .map((entry) => {
      const comma = entry.lastIndexOf(',');
      const resource = entry.slice(0, comma).trim();
      const permission = entry.slice(comma + 1).trim();
      if (comma <= 0 || !(permission in Permission)) {
        throw new InvalidAclError(
          `invalid ACL entry '${entry}': expected resource,NONE|READ|READ_UPDATE`,
        );
      }
      const pattern = resource.split('*').map(escapeRegExp).join('.*');
      return {
        resource,
        permission: permission as Permission,
        matcher: new RegExp(`^${pattern}$`),
      };
    });
}

/** The permission the first entry matching `resource` grants; NONE when none matches. */
export function permissionOn(acl: AclEntry[], resource: string): Permission {
  return acl.find((entry) => entry.matcher.test(resource))?.permission ?? Permission.NONE;
}
