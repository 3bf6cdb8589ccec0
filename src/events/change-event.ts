/**
 * The events of the change feed (docs/extensions.md section 8), as pure functions: what an event
 * says, and how it is sent. An event is stored as the JSON it is sent as, without its id (which
 * the commit gives it), so it is serialized once however many watchers receive it.
 */

/** What kind of resource an event is about. */
export type ChangeKind = 'scope' | 'stream' | 'readerGroup';

/** One event as the API answers it. */
export interface ChangeEvent {
  /** Its place in the feed: a decimal int64. */
  id: string;
  /** When the change was made, in milliseconds since 1970. */
  time: number;
  /** The change's operationId (`createStream`). */
  operation: string;
  kind: ChangeKind;
  /** The resource as ACLs name it (`prn::/scope:S/stream:T`). */
  resource: string;
  scopeName: string;
  streamName?: string;
  readerGroupName?: string;
  principal: string;
  requestId?: string;
  /** The resource's entity tag after the change; absent after a delete. */
  etag?: string;
  /** The resource as its GET answers it after the change; absent after a delete. */
  object?: object;
}

/** A change as the feed is told of it, inside the change's transaction. */
export interface FeedEntry {
  operation: string;
  resource: string;
  principal: string;
  requestId?: string | null;
  /** The resource after the change (its GET's body and entity tag); none after a delete. */
  shown?: { body: object; etag: string };
  /** When the change was made (ms); now by default. */
  time?: number;
}

/** An event as it is kept and passed around: its id, what a reader filters on, and its JSON. */
export interface StoredEvent {
  id: bigint;
  scopeName: string;
  resource: string;
  /** The event's JSON without its id: `{"time":...}`. */
  body: string;
  /** Its Server-Sent Event frame, once made ({@link sseFrameBytes}): shared by every stream. */
  frame?: Buffer;
}

/** An event about to be written: what {@link StoredEvent} holds, but its id. */
export type NewEvent = Omit<StoredEvent, 'id' | 'frame'>;

const RESOURCE = /^prn::\/scope:([^/]+)(?:\/(stream|reader-group):([^/]+))?$/;

/** The kind and names of a resource named as ACLs name it; undefined for anything else. */
export function resourceNames(
  resource: string,
):
  | { kind: ChangeKind; scopeName: string; streamName?: string; readerGroupName?: string }
  | undefined {
  const match = RESOURCE.exec(resource);
  if (!match) return undefined;
  const [, scopeName, type, name] = match;
  if (type === 'stream') return { kind: 'stream', scopeName, streamName: name };
  if (type === 'reader-group') return { kind: 'readerGroup', scopeName, readerGroupName: name };
  return { kind: 'scope', scopeName };
}

/** The event of a change, ready to be written; undefined when the resource is not one of the feed's. */
export function newEvent(entry: FeedEntry): NewEvent | undefined {
  const names = resourceNames(entry.resource);
  if (!names) return undefined;
  const event: Omit<ChangeEvent, 'id'> = {
    time: entry.time ?? Date.now(),
    operation: entry.operation,
    kind: names.kind,
    resource: entry.resource,
    scopeName: names.scopeName,
    ...(names.streamName !== undefined && { streamName: names.streamName }),
    ...(names.readerGroupName !== undefined && { readerGroupName: names.readerGroupName }),
    principal: entry.principal,
    ...(entry.requestId && { requestId: entry.requestId }),
    ...(entry.shown && { etag: entry.shown.etag, object: entry.shown.body }),
  };
  return { scopeName: names.scopeName, resource: entry.resource, body: JSON.stringify(event) };
}

/** The event's JSON, its id first. */
export const eventJson = (event: StoredEvent): string =>
  `{"id":"${event.id}",${event.body.slice(1)}`;

/** The operation an event's body names (for the SSE `event:` line). */
export function operationOf(event: StoredEvent): string {
  const match = /"operation":"([A-Za-z]+)"/.exec(event.body);
  return match ? match[1] : 'change';
}

/** One Server-Sent Event (`id`, `event`, `data` lines and the blank line that ends it). */
export const sseFrame = (event: StoredEvent): string =>
  `id: ${event.id}\nevent: ${operationOf(event)}\ndata: ${eventJson(event)}\n\n`;

/**
 * The event's Server-Sent Event frame as bytes, made once per event: every stream of the
 * instance that sends it sends the same buffer (no string or copy per watcher).
 */
export function sseFrameBytes(event: StoredEvent): Buffer {
  event.frame ??= Buffer.from(sseFrame(event));
  return event.frame;
}
