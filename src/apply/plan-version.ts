import { createHash } from 'node:crypto';
import { strongTag } from '../conditional/entity-tag';

/**
 * A strong entity tag over every version a plan read, one `what@version` entry each (`absent`
 * for a listed resource that does not exist). Sorted, so the order of reading does not matter;
 * any change to what was read (a new version, a resource appearing or going) changes the tag.
 */
export function planVersionOf(read: readonly string[]): string {
  const digest = createHash('sha256')
    .update([...read].sort().join('\n'))
    .digest('base64url');
  return strongTag(digest);
}
