import { ACTOR, fakeAudit, fakeDb, scopesWhere } from '../../test/support/fake-db';
import { AuditedChanges } from '../audit/audited-changes.service';
import { InvalidRequestError } from '../common/domain-error';
import { ScopeNotFoundError } from '../scopes/scope.errors';
import { StreamNotFoundError } from '../streams/stream.errors';
import type { StreamsService } from '../streams/streams.service';
import { ReaderGroupNotFoundError, ReaderNotOnlineError } from './reader-group.errors';
import type { ReaderGroupsRepository } from './reader-groups.repository';
import { ReaderGroupsService } from './reader-groups.service';
import type { Paginator } from '../pagination/paginator';

const VERSION = { created: '1700000000000000', version: '1' };

/** These tests list nothing: paging is tested end to end. */
const NO_PAGES = {} as Paginator;

/**
 * The service over repositories holding the streams `existing`, one group `g` and reader `r`.
 * `calls` are the repositories' writes, and `audit` the audit rows, that committed.
 */
function setUp({ existing = ['s/a', 's/b', 'o/c'], scopeExists = true, groupExists = true } = {}) {
  const db = fakeDb();
  const calls = db.journal<string>();
  const groups = {
    findOne: () => Promise.resolve({ streams: [], readers: [], revision: VERSION }),
    insert: (scope: string, group: string) => (
      calls.push(`group ${scope}/${group}`),
      Promise.resolve(VERSION)
    ),
    insertStreams: (_s: string, _g: string, refs: { scope: string; stream: string }[]) => (
      calls.push(`streams ${refs.map((r) => `${r.scope}/${r.stream}`).join(',')}`),
      Promise.resolve()
    ),
    lockVersion: () => Promise.resolve(groupExists ? VERSION : undefined),
    addReader: () => Promise.resolve(groupExists),
    removeReader: (_s: string, _g: string, reader: string) => Promise.resolve(reader === 'r'),
  } as unknown as ReaderGroupsRepository;
  const streams = {
    lockExisting: () => Promise.resolve(new Set(existing)),
    createReaderGroupStream: (scope: string, group: string) => (
      calls.push(`stream of group ${scope}/${group}`),
      Promise.resolve()
    ),
  } as unknown as StreamsService;
  const scopes = scopesWhere(scopeExists);
  const audit = fakeAudit(db);
  const changes = new AuditedChanges(db, audit);
  return {
    service: new ReaderGroupsService(groups, streams, scopes, changes, NO_PAGES),
    calls,
    audit,
    db,
  };
}

describe('ReaderGroupsService', () => {
  it('creates the group, its _RG stream and its stream list in one transaction', async () => {
    const { service, calls, audit, db } = setUp();
    const created = await service.create(ACTOR, 's', {
      readerGroupName: 'g',
      streams: ['a', 'o/c', 'a', 's/b'],
    });
    expect(created).toEqual({
      body: {
        scopeName: 's',
        readerGroupName: 'g',
        streamList: ['s/a', 'o/c', 's/b'],
        onlineReaderIds: [],
      },
      etag: '"1700000000000000.1"',
    });
    expect(calls).toEqual(['group s/g', 'stream of group s/g', 'streams s/a,o/c,s/b']);
    expect(db.transactions).toEqual(['committed']);
    expect(audit.entries).toEqual([
      {
        operation: 'createReaderGroup',
        resource: 'prn::/scope:s/reader-group:g',
        after: { readerGroupName: 'g', streamList: ['s/a', 'o/c', 's/b'] },
      },
    ]);
  });

  it('names the first stream that does not exist, creating nothing: no group, no stream', async () => {
    const { service, calls, audit, db } = setUp({ existing: ['s/a'] });
    const refused = service.create(ACTOR, 's', { readerGroupName: 'g', streams: ['a', 'x', 'y'] });
    await expect(refused).rejects.toEqual(new StreamNotFoundError('s', 'x'));
    expect(calls).toEqual([]);
    expect(audit.entries).toEqual([]);
    expect(db.transactions).toEqual(['rolled back']);
  });

  it('refuses a reader id that is not a name before touching anything', async () => {
    const { service, db } = setUp();
    await expect(service.readerOnline(ACTOR, 's', 'g', '_bad')).rejects.toBeInstanceOf(
      InvalidRequestError,
    );
    expect(db.transactions).toEqual([]);
  });

  it('audits a reader going offline, and says why one cannot', async () => {
    const { service, audit } = setUp();
    await service.readerOffline(ACTOR, 's', 'g', 'r');
    expect(audit.entries.map((e) => e.after)).toEqual([{ readerId: 'r', online: false }]);
    await expect(service.readerOffline(ACTOR, 's', 'g', 'q')).rejects.toBeInstanceOf(
      ReaderNotOnlineError,
    );
    await expect(
      setUp({ groupExists: false }).service.readerOffline(ACTOR, 's', 'g', 'q'),
    ).rejects.toBeInstanceOf(ReaderGroupNotFoundError);
    await expect(
      setUp({ groupExists: false, scopeExists: false }).service.readerOffline(ACTOR, 's', 'g', 'q'),
    ).rejects.toBeInstanceOf(ScopeNotFoundError);
  });
});
