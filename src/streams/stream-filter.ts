import { InvalidRequestError } from '../common/domain-error';
import { tagProblem } from './stream-tags';

export const STREAM_FILTER_TYPES = ['showInternalStreams', 'tag'] as const;
export type StreamFilterType = (typeof STREAM_FILTER_TYPES)[number];

/** Which streams of a scope a listing returns. */
export type StreamFilter = { kind: 'user' } | { kind: 'internal' } | { kind: 'tag'; tag: string };

export interface StreamFilterQuery {
  filter_type?: StreamFilterType;
  filter_value?: string;
  /** The earlier revision's parameter, still sent by legacy clients. */
  showInternalStreams?: string;
}

/** No value (or an empty one) means `true`: the reference's own tests send exactly that. */
function showInternal(value: string | undefined, field: string): StreamFilter {
  if (value === undefined || value === '' || value === 'true') return { kind: 'internal' };
  if (value === 'false') return { kind: 'user' };
  throw InvalidRequestError.of(field, 'must be true or false');
}

/** Reads the list-streams query: no filter lists user streams only. */
export function toStreamFilter(query: StreamFilterQuery): StreamFilter {
  switch (query.filter_type) {
    case 'tag': {
      if (!query.filter_value) {
        throw InvalidRequestError.of('filter_value', 'is required with filter_type=tag');
      }
      const problem = tagProblem(query.filter_value);
      if (problem) throw InvalidRequestError.of('filter_value', `a tag ${problem}`);
      return { kind: 'tag', tag: query.filter_value };
    }
    case 'showInternalStreams':
      return showInternal(query.filter_value, 'filter_value');
    default:
      if (query.filter_value !== undefined) {
        throw InvalidRequestError.of('filter_type', 'is required with filter_value');
      }
      if (query.showInternalStreams !== undefined) {
        return showInternal(query.showInternalStreams, 'showInternalStreams');
      }
      return { kind: 'user' };
  }
}
