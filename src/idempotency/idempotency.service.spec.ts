import { fakeDb } from '../../test/support/fake-db';
import { InvalidRequestError } from '../common/domain-error';
import { loadConfig } from '../config/app-config';
import { IdempotencyKeyInUseError, IdempotencyKeyReusedError } from './idempotency.errors';
import type {
  IdempotencyRepository,
  KeyedRequest,
  StoredAnswer,
  StoredRecord,
} from './idempotency.repository';
import { Handled, IdempotencyService, KeyedHandler } from './idempotency.service';

const REQUEST: KeyedRequest = {
  principal: 'alice',
  key: 'k-1',
  method: 'POST',
  path: '/v1/scopes',
  bodyDigest: 'digest',
};
const CREATED: StoredAnswer = { status: 201, body: '{"scopeName":"s"}', headers: {} };
const NOT_FOUND: StoredAnswer = { status: 404, body: '{"code":"X"}', headers: {} };

/**
 * A repository that holds `kept` for the key (or nothing). `written` is what it wrote that
 * committed: a claim that took the key, an answer completed.
 */
function setUp(
  kept?: StoredRecord,
  {
    claimFails,
    completeFails,
    keepFails,
  }: { claimFails?: Error; completeFails?: Error; keepFails?: Error } = {},
) {
  const db = fakeDb();
  const written = db.journal<string>();
  const records = {
    claim: (_request: KeyedRequest, ttl: number, answer: StoredAnswer | null = null) => {
      if (claimFails) return Promise.reject(claimFails);
      if (keepFails && answer) return Promise.reject(keepFails);
      // The key is taken only when no live entry holds it.
      const taken = kept === undefined;
      if (taken) written.push(`claim ttl=${ttl} status=${answer?.status ?? null}`);
      return Promise.resolve(taken);
    },
    findLocked: () => Promise.resolve(kept),
    complete: (_p: string, _k: string, answer: StoredAnswer) => {
      if (completeFails) return Promise.reject(completeFails);
      written.push(`complete status=${answer.status}`);
      return Promise.resolve();
    },
  } as unknown as IdempotencyRepository;
  const service = new IdempotencyService(db, records, loadConfig({ IDEMPOTENCY_TTL_HOURS: '6' }));
  return { service, written, db };
}

const handlerOf = (outcome: Handled | Error, failure?: StoredAnswer) => {
  const ran: string[] = [];
  const handler: KeyedHandler = {
    handle: () => {
      ran.push('handle');
      return outcome instanceof Error ? Promise.reject(outcome) : Promise.resolve(outcome);
    },
    failureAnswer: () => failure,
  };
  return { handler, ran };
};

describe('IdempotencyService', () => {
  it('runs the first request and keeps its answer in the same transaction', async () => {
    const { service, written, db } = setUp();
    const { handler } = handlerOf({ value: { scopeName: 's' }, answer: CREATED });
    expect(await service.serve(REQUEST, handler)).toEqual({ handled: { scopeName: 's' } });
    expect(written).toEqual(['claim ttl=6 status=null', 'complete status=201']);
    expect(db.transactions).toEqual(['committed']);
  });

  it('gives the kept answer of the same request without running it, writing nothing', async () => {
    const { service, written } = setUp({ ...REQUEST, ...CREATED });
    const { handler, ran } = handlerOf({ value: 'unused', answer: CREATED });
    expect(await service.serve(REQUEST, handler)).toEqual({
      replayed: { ...REQUEST, ...CREATED },
    });
    expect(ran).toEqual([]);
    expect(written).toEqual([]);
  });

  it.each([
    ['body', { bodyDigest: 'other' }],
    ['path', { path: '/v1/scopes/s/streams' }],
    ['method', { method: 'PUT' }],
  ])('refuses the key of a request with another %s', async (_name, other) => {
    const { service } = setUp({ ...REQUEST, ...CREATED, ...other });
    const { handler, ran } = handlerOf({ value: 'unused', answer: CREATED });
    await expect(service.serve(REQUEST, handler)).rejects.toBeInstanceOf(IdempotencyKeyReusedError);
    expect(ran).toEqual([]);
  });

  it.each([
    ['the statement timeout', '57014'],
    ['a lock refused', '55P03'],
  ])('answers "in use" when waiting for the first request ends in %s', async (_name, code) => {
    const { service } = setUp(undefined, { claimFails: Object.assign(new Error('w'), { code }) });
    const { handler, ran } = handlerOf({ value: 'unused', answer: CREATED });
    await expect(service.serve(REQUEST, handler)).rejects.toBeInstanceOf(IdempotencyKeyInUseError);
    expect(ran).toEqual([]);
  });

  it('keeps a failure of the handler after its rollback, in a transaction of its own', async () => {
    const { service, written, db } = setUp();
    const error = InvalidRequestError.of('f', 'bad');
    const { handler } = handlerOf(error, NOT_FOUND);
    await expect(service.serve(REQUEST, handler)).rejects.toBe(error);
    expect(written).toEqual(['claim ttl=6 status=404']);
    expect(db.transactions).toEqual(['rolled back', 'committed']);
  });

  it('keeps no failure the handler does not want kept (5xx and refusals)', async () => {
    const { service, written, db } = setUp();
    const error = new Error('bug');
    const { handler } = handlerOf(error, undefined);
    await expect(service.serve(REQUEST, handler)).rejects.toBe(error);
    expect(written).toEqual([]);
    expect(db.transactions).toEqual(['rolled back']);
  });

  it('keeps nothing when the answer cannot be written: the change fails with it', async () => {
    const failure = new Error('cannot write');
    const { service, written, db } = setUp(undefined, { completeFails: failure });
    const { handler } = handlerOf({ value: 'v', answer: CREATED }, NOT_FOUND);
    await expect(service.serve(REQUEST, handler)).rejects.toBe(failure);
    expect(written).toEqual([]);
    expect(db.transactions).toEqual(['rolled back']);
  });

  it('still answers the failure when keeping it fails', async () => {
    const { service, written, db } = setUp(undefined, { keepFails: new Error('cannot keep') });
    const error = InvalidRequestError.of('f', 'bad');
    const { handler } = handlerOf(error, NOT_FOUND);
    await expect(service.serve(REQUEST, handler)).rejects.toBe(error);
    expect(written).toEqual([]);
    expect(db.transactions).toEqual(['rolled back', 'rolled back']);
  });
});
