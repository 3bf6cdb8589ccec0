import { listElements } from '../http/header-list';

/**
 * Entity tags and the conditional headers that carry them (RFC 9110 sections 8.8.3 and 13.1).
 * Pure functions: the routes decide what a tag stands for, these decide what matches.
 */

/** One entity tag as a client sent it. */
export interface EntityTag {
  weak: boolean;
  /** The opaque part, without quotes. */
  opaque: string;
}

/** `*`, or the list of tags a conditional header names. */
export type TagCondition = '*' | EntityTag[];

/** The header is not a valid `#entity-tag` list (nor `*`). */
export class MalformedConditionError extends Error {}

// etagc = %x21 / %x23-7E / obs-text (no space, no double quote)
const ENTITY_TAG = /^(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"$/;

/** A strong tag over the parts that identify one state of a resource. */
export function strongTag(...parts: Array<string | number>): string {
  return `"${parts.join('.')}"`;
}

/**
 * Reads `If-Match` or `If-None-Match`: undefined when absent, `*`, or the list of tags. Empty
 * list elements are allowed and skipped (`a, , b`), as the list syntax says; a quoted tag may
 * itself hold a comma.
 */
export function parseCondition(header: string | string[] | undefined): TagCondition | undefined {
  if (header === undefined) return undefined;
  const elements = listElements(header);
  if (elements.length === 1 && elements[0] === '*') return '*';
  const tags = elements.map((item) => {
    const match = ENTITY_TAG.exec(item);
    if (!match) throw new MalformedConditionError(`not an entity tag: ${item}`);
    return { weak: match[1] !== undefined, opaque: match[2] };
  });
  if (tags.length === 0) throw new MalformedConditionError('no entity tag');
  return tags;
}

const opaqueOf = (tag: string): string => tag.replace(/^W\//, '').slice(1, -1);

/** `If-Match`: strong comparison; a weak tag never matches. */
export function ifMatchHolds(condition: TagCondition | undefined, current: string): boolean {
  if (condition === undefined || condition === '*') return true;
  return condition.some((tag) => !tag.weak && tag.opaque === opaqueOf(current));
}

/** `If-None-Match` on a read: true when the client's copy is current (answer 304). */
export function notModified(condition: TagCondition | undefined, current: string): boolean {
  if (condition === undefined) return false;
  if (condition === '*') return true;
  return condition.some((tag) => tag.opaque === opaqueOf(current));
}
