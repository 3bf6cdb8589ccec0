/**
 * Names in a path are not validated (an invalid one is simply not found), but some strings
 * cannot even be looked up: PostgreSQL text holds no NUL, and no stored name is longer than
 * 258 characters (`_MARK_RG` and a 250-character group name). Those are answered as "not found" without asking the database.
 */
const LOOKUP_CHARS = /^[A-Za-z0-9._-]{1,258}$/;

export const canExist = (name: string): boolean => LOOKUP_CHARS.test(name);
