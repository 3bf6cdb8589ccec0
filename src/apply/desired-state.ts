import type { StreamConfigurationInput } from '../streams/stream-configuration';

/** The most streams one document may list, over all its scopes. */
export const MAX_DOCUMENT_STREAMS = 10_000;

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
}

/** The desired state of `POST /v1/apply` (docs/extensions.md section 5), already validated. */
export interface ApplyDocument {
  scopes: DesiredScope[];
  prune?: boolean;
}
