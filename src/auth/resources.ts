/** The reference's resource names, on which ACL entries grant permissions. */
export const ROOT_RESOURCE = 'prn::/';
export const scopeResource = (scope: string): string => `prn::/scope:${scope}`;
export const streamResource = (scope: string, stream: string): string =>
  `prn::/scope:${scope}/stream:${stream}`;
export const readerGroupResource = (scope: string, group: string): string =>
  `prn::/scope:${scope}/reader-group:${group}`;
