import type { ChangeEvent } from '../api/types';

/** Which events of the change feed make a screen's read out of date. */
export type Follows = (event: ChangeEvent) => boolean;

/** The list of scopes: a scope created or deleted. */
export const scopeEvents: Follows = (event) => event.kind === 'scope';

/** A scope itself. */
export const theScope =
  (scope: string): Follows =>
  (event) =>
    event.kind === 'scope' && event.scopeName === scope;

/** Anything of one kind in a scope (its list of streams, of reader groups). */
export const inScope =
  (scope: string, kind: ChangeEvent['kind']): Follows =>
  (event) =>
    event.kind === kind && event.scopeName === scope;

/** One stream: its configuration, state, segments and scaling history. */
export const theStream =
  (scope: string, stream: string): Follows =>
  (event) =>
    event.kind === 'stream' && event.scopeName === scope && event.streamName === stream;

/**
 * One reader group: its own changes, and any stream of its scope (a stream it reads, deleted or
 * sealed, changes what the group answers).
 */
export const theReaderGroup =
  (scope: string, group: string): Follows =>
  (event) =>
    event.scopeName === scope &&
    (event.kind === 'stream' || (event.kind === 'readerGroup' && event.readerGroupName === group));

/** Every change (the audit trail has a row for each). */
export const everything: Follows = () => true;

/** One stream's scales by load. */
export const loadScalesOf =
  (scope: string, stream: string): Follows =>
  (event) =>
    theStream(scope, stream)(event) && event.operation === 'reportLoad';
