/** Characters allowed in every user-given name: ASCII letters, digits, `.` and `-`. */
const NAME_CHARS = /^[A-Za-z0-9.-]+$/;

export const MAX_SCOPE_NAME_LENGTH = 255;
/** Streams, reader groups and readers leave room for the `_MARK` prefix of companion streams. */
export const MAX_STREAM_NAME_LENGTH = 250;

/** Prefix of the companion stream every user stream has. */
export const MARK_PREFIX = '_MARK';
/** Prefix of the internal stream that holds a reader group's state. */
export const READER_GROUP_PREFIX = '_RG';

/** Why a name is not acceptable, or undefined when it is. */
export function nameProblem(name: unknown, maxLength: number): string | undefined {
  if (typeof name !== 'string') return 'must be a string';
  if (name.length === 0) return 'must not be empty';
  if (name.length > maxLength) return `must be at most ${maxLength} characters long`;
  if (name.startsWith('_')) return 'must not start with "_" (reserved for the system)';
  if (!NAME_CHARS.test(name)) return 'may only contain the characters A-Z a-z 0-9 . -';
  return undefined;
}

export const scopeNameProblem = (name: unknown): string | undefined =>
  nameProblem(name, MAX_SCOPE_NAME_LENGTH);

export const streamNameProblem = (name: unknown): string | undefined =>
  nameProblem(name, MAX_STREAM_NAME_LENGTH);

/** Internal streams (companions and reader-group state) start with `_`; user streams never do. */
export const isInternalStreamName = (name: string): boolean => name.startsWith('_');

export const markStreamName = (stream: string): string => `${MARK_PREFIX}${stream}`;

/**
 * Names in a path are not validated (an invalid one is simply not found), but some strings
 * cannot even be looked up: PostgreSQL text holds no NUL, and no stored name is longer than
 * 258 characters (`_MARK_RG` and a 250-character group name). Such a name can name nothing.
 */
const LOOKUP_CHARS = /^[A-Za-z0-9._-]{1,258}$/;

export const canExist = (name: string): boolean => LOOKUP_CHARS.test(name);
