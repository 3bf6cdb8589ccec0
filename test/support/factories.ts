import { randomBytes } from 'node:crypto';

/** A name no other test uses. */
export const uniqueName = (prefix = 'n'): string => `${prefix}-${randomBytes(4).toString('hex')}`;

export const JSON_HEADERS = { 'Content-Type': 'application/json' };
export const PROBLEM_HEADERS = { Accept: 'application/problem+json' };
