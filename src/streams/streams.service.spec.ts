import { ACTOR, fakeAudit, fakeDb, scopesWhere } from '../../test/support/fake-db';
import { AuditedChanges } from '../audit/audited-changes.service';
import { PreconditionFailedError } from '../conditional/resource-version';
import { ScopeNotFoundError } from '../scopes/scope.errors';
import type { Stream } from './stream';
import {
  InternalStreamError,
  StreamNotFoundError,
  StreamNotSealedError,
  StreamSealedError,
} from './stream.errors';
import type { StreamPolicyChecks } from './stream-policy-checks.service';
import type { NextEpoch, StreamsRepository } from './streams.repository';
import { StreamsService } from './streams.service';
import type { Paginator } from '../pagination/paginator';

const STORED: Stream = {
  scopeName: 's',
  name: 't',
  state: 'ACTIVE',
  configuration: {
    scaling: { type: 'FIXED_NUM_SEGMENTS', minSegments: 2 },
    tags: [],
    rolloverSizeBytes: 0,
    timestampAggregationTimeout: 0,
  },
  revision: { created: '1700000000000000', version: '4' },
};
const NEXT = { created: '1700000000000000', version: '5' };

/** These tests list nothing: paging is tested end to end. */
const NO_PAGES = {} as Paginator;

/** A scope without a policy: policies are tested end to end (test/scope-policies-*.e2e-spec.ts). */
const NO_POLICY = {
  check: () => Promise.resolve(),
  hold: () => Promise.resolve({ held: {} }),
} as unknown as StreamPolicyChecks;

/**
 * The service over a repository holding one stream (or none: null) and a scope, or none.
 * `calls` are the repository's writes, and `audit` the audit rows, that committed.
 */
function setUp({
  stored = STORED,
  scopeExists = true,
}: { stored?: Stream | null; scopeExists?: boolean } = {}) {
  const stream = stored ?? undefined;
  const db = fakeDb();
  const calls = db.journal<string>();
  const epoch = { epoch: 3, timestamp: 1000 };
  const active = [7, 8].map((number, i) => ({
    number,
    startTime: 1000,
    keyStart: i / 2,
    keyEnd: (i + 1) / 2,
    createdIn: 3,
  }));
  const streams = {
    lockOne: () => Promise.resolve(stream),
    findOne: () => Promise.resolve(stream),
    updateConfiguration: () => (
      calls.push('updateConfiguration'),
      Promise.resolve({ revision: NEXT, base: { ...epoch, nextNumber: 9, segments: active } })
    ),
    scaleUnanswered: (_s: string, _n: string, { epoch, time, sealed, ranges }: NextEpoch) => (
      calls.push(
        `scale to ${epoch}: seal ${sealed.join()}, open ${ranges.length} at ${time > 1000}`,
      ),
      Promise.resolve()
    ),
    seal: () => (calls.push('seal'), Promise.resolve(NEXT)),
    delete: () => (calls.push('delete'), Promise.resolve()),
  } as unknown as StreamsRepository;
  const scopes = scopesWhere(scopeExists);
  const audit = fakeAudit(db);
  const changes = new AuditedChanges(db, audit);
  return {
    service: new StreamsService(streams, scopes, changes, NO_PAGES, NO_POLICY),
    calls,
    audit,
    db,
  };
}

const fixed = (minSegments: number) => ({
  scalingPolicy: { type: 'FIXED_NUM_SEGMENTS' as const, minSegments },
});

describe('StreamsService', () => {
  it('rescales on update when the fixed count changes, in one transaction, audited', async () => {
    const { service, calls, audit, db } = setUp();
    const after = await service.update(ACTOR, 's', 't', fixed(4));
    expect(after.body.scalingPolicy).toEqual({ type: 'FIXED_NUM_SEGMENTS', minSegments: 4 });
    expect(after.etag).toBe('"1700000000000000.5"');
    expect(calls).toEqual(['updateConfiguration', 'scale to 4: seal 7,8, open 4 at true']);
    expect(db.transactions).toEqual(['committed']);
    expect(audit.entries).toEqual([
      expect.objectContaining({
        operation: 'updateStream',
        resource: 'prn::/scope:s/stream:t',
        before: expect.objectContaining({
          scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments: 2 },
        }),
      }),
    ]);
  });

  it('does not rescale when the active segments already fit the policy', async () => {
    const { service, calls } = setUp();
    await service.update(ACTOR, 's', 't', fixed(2));
    expect(calls).toEqual(['updateConfiguration']);
  });

  it('rescales a rate policy only when it needs more segments than are active', async () => {
    const rate = (minSegments: number) => ({
      scalingPolicy: {
        type: 'BY_RATE_IN_EVENTS_PER_SEC' as const,
        targetRate: 10,
        scaleFactor: 2,
        minSegments,
      },
    });
    const fewer = setUp();
    await fewer.service.update(ACTOR, 's', 't', rate(1));
    expect(fewer.calls).toEqual(['updateConfiguration']);
    const more = setUp();
    await more.service.update(ACTOR, 's', 't', rate(3));
    expect(more.calls).toEqual(['updateConfiguration', 'scale to 4: seal 7,8, open 3 at true']);
  });

  it('refuses to update a sealed stream, writing nothing', async () => {
    const { service, calls, audit, db } = setUp({ stored: { ...STORED, state: 'SEALED' } });
    await expect(service.update(ACTOR, 's', 't', fixed(4))).rejects.toBeInstanceOf(
      StreamSealedError,
    );
    expect(calls).toEqual([]);
    expect(audit.entries).toEqual([]);
    expect(db.transactions).toEqual(['rolled back']);
  });

  it('refuses to change an internal stream', async () => {
    const { service } = setUp({ stored: { ...STORED, name: '_MARKt' } });
    await expect(service.seal(ACTOR, 's', '_MARKt')).rejects.toBeInstanceOf(InternalStreamError);
  });

  it('says which is missing: the stream, or its scope', async () => {
    await expect(setUp({ stored: null }).service.get('s', 't')).rejects.toBeInstanceOf(
      StreamNotFoundError,
    );
    await expect(
      setUp({ stored: null, scopeExists: false }).service.update(ACTOR, 's', 't', fixed(1)),
    ).rejects.toBeInstanceOf(ScopeNotFoundError);
  });

  it('seals once: sealing a sealed stream records nothing', async () => {
    const active = setUp();
    await active.service.seal(ACTOR, 's', 't');
    expect(active.calls).toEqual(['seal']);
    expect(active.audit.entries.map((e) => e.operation)).toEqual(['updateStreamState']);
    const sealed = setUp({ stored: { ...STORED, state: 'SEALED' } });
    expect(await sealed.service.seal(ACTOR, 's', 't')).toEqual({
      body: { streamState: 'SEALED' },
      etag: '"1700000000000000.4"',
    });
    expect(sealed.calls).toEqual([]);
    expect(sealed.audit.entries).toEqual([]);
  });

  it('changes nothing unless If-Match names the current version (weak tags never do)', async () => {
    for (const condition of [
      [{ weak: false, opaque: '1700000000000000.3' }],
      [{ weak: true, opaque: '1700000000000000.4' }],
    ]) {
      const { service, calls, audit } = setUp();
      await expect(service.update(ACTOR, 's', 't', fixed(4), condition)).rejects.toBeInstanceOf(
        PreconditionFailedError,
      );
      expect(calls).toEqual([]);
      expect(audit.entries).toEqual([]);
    }
    const { service, calls } = setUp();
    await service.seal(ACTOR, 's', 't', [
      { weak: false, opaque: 'x' },
      { weak: false, opaque: '1700000000000000.4' },
    ]);
    expect(calls).toEqual(['seal']);
  });

  it('deletes only a sealed stream', async () => {
    await expect(setUp().service.delete(ACTOR, 's', 't')).rejects.toBeInstanceOf(
      StreamNotSealedError,
    );
    const sealed = setUp({ stored: { ...STORED, state: 'SEALED' } });
    await sealed.service.delete(ACTOR, 's', 't');
    expect(sealed.calls).toEqual(['delete']);
  });
});
