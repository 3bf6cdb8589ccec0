/* eslint-disable @typescript-eslint/no-require-imports -- required on first use, by design */

/**
 * Packages that only some processes use, required the first time one is needed rather than when
 * the service starts: whatever a process has required stays in its heap for its life, and a long
 * list's memory climbs to about four times that heap before V8 compacts it (BENCHMARKS.md, "The
 * data layer's cost": the heap every process keeps). `yaml` reads YAML bodies and the group ACLs
 * file, `pino-pretty` writes logs for a terminal, `jose` verifies bearer tokens; a service with
 * the defaults uses none of them (test/packages-on-first-use.e2e-spec.ts). Loading one takes
 * 25 to 40 ms, once per process: `jose` and `pino-pretty` are loaded at start when configured
 * (the provider's keys, the logger), so only a process's first YAML body waits for it.
 */
function onFirstUse<T>(load: () => T): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= load());
}

export const yaml = onFirstUse(() => require('yaml') as typeof import('yaml'));

export const pinoPretty = onFirstUse(() => require('pino-pretty') as typeof import('pino-pretty'));

export const jose = onFirstUse(() => require('jose') as typeof import('jose'));
