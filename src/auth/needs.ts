import type { OperationId } from '../common/operations';
import { StreamRef, streamsNamed } from '../reader-groups/stream-ref';
import { Permission } from './acl';
import { Access, AccessNeed, AccessRule, PathParams } from './access.decorator';
import { ANONYMOUS_PRINCIPAL, Principal } from './principal';
import { readerGroupResource, ROOT_RESOURCE, scopeResource, streamResource } from './resources';

const { NONE, READ, READ_UPDATE } = Permission;
const root = (): string => ROOT_RESOURCE;
const scope = (p: PathParams): string => scopeResource(p.scopeName);
const stream = (p: PathParams): string => streamResource(p.scopeName, p.streamName);
const group = (p: PathParams): string => readerGroupResource(p.scopeName, p.readerGroupName);

/** READ on each of the streams: what reading them from a reader group needs. */
export const readOnStreams = (refs: readonly StreamRef[]): AccessNeed[] =>
  refs.map((ref) => ({ permission: READ, resource: streamResource(ref.scope, ref.stream) }));

/**
 * Creating a reader group: READ_UPDATE on its scope, and READ on every stream it reads, asked
 * before any is looked up, so that whether a stream exists is told only to who may read it.
 */
const createReaderGroup: AccessRule = {
  permission: READ_UPDATE,
  resource: scope,
  named: (body, p) => readOnStreams(streamsNamed(body, p.scopeName)),
};

/**
 * What `/v1/health/details` needs; the other health routes show their details only to callers
 * who have it (docs/behaviour.md section 7): the data path, disk and memory bytes, migrations.
 */
const HEALTH_DETAILS: AccessRule = { permission: READ_UPDATE, resource: root };

/** The permission each operation needs, as the reference controller asks (docs/behaviour.md section 8). */
export const Needs = {
  readUpdateOnRoot: () => Access({ permission: READ_UPDATE, resource: root }),
  readOnScope: () => Access({ permission: READ, resource: scope }),
  readUpdateOnScope: () => Access({ permission: READ_UPDATE, resource: scope }),
  createReaderGroup: () => Access(createReaderGroup),
  readOnStream: () => Access({ permission: READ, resource: stream }),
  readUpdateOnStream: () => Access({ permission: READ_UPDATE, resource: stream }),
  readOnReaderGroup: () => Access({ permission: READ, resource: group }),
  readUpdateOnReaderGroup: () => Access({ permission: READ_UPDATE, resource: group }),
  /** Listing scopes needs READ on the root, as the reference; the answer shows those readable. */
  /** Any account may ask; the handler checks what each part of the request needs. */
  anyAccount: () => Access({ permission: NONE, resource: root }),
  readableScopes: () =>
    Access({
      permission: READ,
      resource: root,
      list: { resource: (item) => scopeResource(item.scopeName) },
    }),
  readableStreams: () =>
    Access({
      permission: READ,
      resource: scope,
      list: { resource: (item, p) => streamResource(p.scopeName, item.streamName) },
    }),
  readableReaderGroups: () =>
    Access({
      permission: READ,
      resource: scope,
      list: { resource: (item, p) => readerGroupResource(p.scopeName, item.readerGroupName) },
    }),
  /** The change feed: READ on the root, or with `?scope=`, on that scope; each event is filtered. */
  readOnFeed: () =>
    Access({
      permission: READ,
      resource: (_p, query) =>
        typeof query?.scope === 'string' ? scopeResource(query.scope) : ROOT_RESOURCE,
    }),
  /** Health and probes: open while AUTH_HEALTH_OPEN is true, READ on the root otherwise. */
  health: () => Access({ permission: READ, resource: root, health: true }),
  healthDetails: () => Access(HEALTH_DETAILS),
};

/** Whether `access` may see the health details; undefined is anyone while AUTH_ENABLED is off. */
export const seesHealthDetails = (access: Principal | undefined): boolean =>
  (access ?? ANONYMOUS_PRINCIPAL).allows(HEALTH_DETAILS.resource({}), HEALTH_DETAILS.permission);

/**
 * What the operations that a declarative apply runs need, for the apply to ask on each change.
 * The routes of these operations declare the same (a test holds the two together).
 */
export const CHANGE_ACCESS = {
  createScope: { permission: READ_UPDATE, resource: root },
  createStream: { permission: READ_UPDATE, resource: scope },
  updateStream: { permission: READ_UPDATE, resource: stream },
  updateStreamState: { permission: READ_UPDATE, resource: stream },
  deleteStream: { permission: READ_UPDATE, resource: stream },
  createReaderGroup,
  deleteReaderGroup: { permission: READ_UPDATE, resource: group },
  updateScopePolicy: { permission: READ_UPDATE, resource: root },
} satisfies Partial<Record<OperationId, AccessRule>>;

export type ChangeOperation = keyof typeof CHANGE_ACCESS;
