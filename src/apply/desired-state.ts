import type { ScopePolicy } from '../policies/scope-policy';
import type { StreamConfigurationInput } from '../streams/stream-configuration';

/**
 * The most resources one document may list: its scopes, streams and reader groups together
 * (so at most this many streams over all its scopes, too).
 */
export const MAX_DOCUMENT_RESOURCES = 10_000;

/** A stream as the document lists it: the body of `CreateStreamRequest`. */
export interface DesiredStream extends StreamConfigurationInput {
  streamName: string;
}

/** A reader group as the document lists it: streams as `stream` or `scope/stream`. */
export interface DesiredReaderGroup {
  readerGroupName: string;
  streams: string[];
}

export interface DesiredScope {
  scopeName: string;
  streams?: DesiredStream[];
  readerGroups?: DesiredReaderGroup[];
  /** The body of `PUT .../policy`: replaces the stored policy. Absent: left as it is. */
  policy?: ScopePolicy;
}

/** The desired state of `POST /v1/apply` (docs/extensions.md section 5), already validated. */
export interface ApplyDocument {
  scopes: DesiredScope[];
  prune?: boolean;
}
