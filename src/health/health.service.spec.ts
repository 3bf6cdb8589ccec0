import type { MemoryHealthIndicator } from '@nestjs/terminus';
import { parseAcl } from '../auth/acl';
import type { OidcIssuer } from '../auth/oidc/oidc-issuer.service';
import { Principal, UNAUTHENTICATED_PRINCIPAL } from '../auth/principal';
import { AppConfig } from '../config/app-config';
import type { GracefulShutdown } from './graceful-shutdown.service';
import { HealthContributorNotFoundError } from './health.errors';
import { HealthService } from './health.service';
import type { DatabaseIndicator } from './indicators/database.indicator';
import type { DiskSpaceIndicator } from './indicators/disk-space.indicator';
import type { EventLoopIndicator } from './indicators/event-loop.indicator';

const up = (key: string) => ({ [key]: { status: 'up' as const } });

/** A database check that waits until it is released, and what it answered once it was. */
interface HeldCheck {
  release(): void;
  answered: Promise<unknown>;
}

/** The service over indicators that count their checks; the database answers when released. */
function service(cacheMs: number) {
  const checks = { database: 0, migrations: 0, memory: 0, disk: 0, eventLoop: 0 };
  const waiting: HeldCheck[] = [];
  const database = {
    ping: () => {
      checks.database++;
      let release = () => {};
      const answered = new Promise((resolve) => {
        release = () => resolve(up('database'));
      });
      waiting.push({ release, answered });
      return answered;
    },
    migrations: () => (checks.migrations++, up('migrations')),
  } as unknown as DatabaseIndicator;
  const memory = {
    checkHeap: (key: string) => (checks.memory++, Promise.resolve(up(key))),
    checkRSS: (key: string) => Promise.resolve(up(key)),
  } as unknown as MemoryHealthIndicator;
  const disk = { check: () => (checks.disk++, up('disk')) } as unknown as DiskSpaceIndicator;
  const eventLoop = {
    check: () => (checks.eventLoop++, up('eventLoop')),
  } as unknown as EventLoopIndicator;
  const shutdown = { draining: false };
  const config = Object.assign(new AppConfig(), { HEALTH_CACHE_MS: cacheMs });
  const health = new HealthService(
    config,
    database,
    memory,
    disk,
    eventLoop,
    shutdown as GracefulShutdown,
    { enabled: false } as OidcIssuer,
  );
  /**
   * Answers the database checks once `count` of them wait (the probes may start them on later
   * turns), and returns when they have answered. More or fewer checks than `count` fail the
   * test, naming how many there were.
   */
  const releaseDatabase = async (count: number) => {
    for (let turn = 0; waiting.length < count && turn < 1000; turn++) {
      await new Promise(setImmediate);
    }
    if (waiting.length !== count) {
      throw new Error(`${waiting.length} database checks wait, not ${count}`);
    }
    const released = waiting.splice(0);
    for (const check of released) check.release();
    await Promise.all(released.map((check) => check.answered));
  };
  return { health, checks, shutdown, releaseDatabase };
}

describe('HealthService', () => {
  it('computes the tree once for concurrent probes of every route in one window', async () => {
    const { health, checks, releaseDatabase } = service(60_000);
    const probes = Array.from({ length: 30 }, (_, i) =>
      [
        () => health.health(),
        () => health.health(['database']),
        () => health.health(['memory', 'heap']),
      ][i % 3](),
    );
    await releaseDatabase(1);
    const answers = await Promise.all(probes);
    expect(answers[0]).toMatchObject({ name: 'tributary', status: 'UP', readiness: true });
    expect(answers[1]).toMatchObject({ name: 'database', status: 'UP' });
    expect(answers[2]).toMatchObject({ name: 'heap', status: 'UP' });
    // The whole tree once; the vital part (memory, event loop) once more, for the heap.
    expect(checks).toEqual({ database: 1, migrations: 1, memory: 2, disk: 1, eventLoop: 2 });

    // Later probes in the same window take the same rendered tree.
    expect(await health.health()).toBe(answers[0]);
    expect(checks.database).toBe(1);
  });

  it('answers liveness from the vital contributors alone, without the database', async () => {
    const { health, checks } = service(60_000);
    const answers = await Promise.all(Array.from({ length: 10 }, () => health.liveness()));
    expect(answers).toEqual(Array(10).fill(true));
    expect(checks).toMatchObject({ database: 0, migrations: 0, disk: 0, memory: 1, eventLoop: 1 });
  });

  it('turns DOWN at once when a shutdown begins, whatever the window', async () => {
    const { health, shutdown, releaseDatabase } = service(60_000);
    const first = health.health();
    await releaseDatabase(1);
    expect((await first).status).toBe('UP');
    shutdown.draining = true;
    const second = health.health();
    await releaseDatabase(1);
    expect(await second).toMatchObject({ status: 'DOWN', details: { state: 'draining' } });
  });

  it('checks on every probe with a window of 0', async () => {
    const { health, checks, releaseDatabase } = service(0);
    const probes = Array.from({ length: 5 }, () => health.health());
    await releaseDatabase(5);
    await Promise.all(probes);
    expect(checks.database).toBe(5);
  });

  it('refuses an unknown contributor', async () => {
    const { health, releaseDatabase } = service(60_000);
    const probe = health.health(['nothing']);
    await releaseDatabase(1);
    await expect(probe).rejects.toBeInstanceOf(HealthContributorNotFoundError);
  });

  it('shows the details only to callers allowed /v1/health/details, or anyone without auth', async () => {
    const { health, releaseDatabase } = service(60_000);
    const as = (acl: string) => new Principal('someone', 'basic', parseAcl(acl));
    const views = Promise.all([
      health.healthFor(undefined),
      health.healthFor(as('prn::/,READ_UPDATE')),
      health.healthFor(as('prn::*,READ')),
      health.healthFor(UNAUTHENTICATED_PRINCIPAL),
      health.healthFor(as('prn::*,READ'), ['memory']),
    ]);
    await releaseDatabase(1);
    const [authOff, admin, reader, anonymous, memory] = await views;
    expect(authOff.details).toMatchObject({ state: 'serving' });
    expect(admin.details).toMatchObject({ state: 'serving' });
    expect(admin.children.memory.children.heap.details).toHaveProperty('usedBytes');
    for (const view of [reader, anonymous]) {
      expect(view).not.toHaveProperty('details');
      expect(view.children.memory.children.heap).not.toHaveProperty('details');
      expect(view.children.memory.children.heap.status).toBe('UP');
    }
    expect(memory).toMatchObject({ name: 'memory', status: 'UP' });
    expect(memory.children.rss).not.toHaveProperty('details');
  });
});
