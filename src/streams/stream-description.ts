import { buildScaleRecords, SegmentRecord } from '../scaling/scaling-history';
import { StreamDescriptionDto } from './dto/stream-description.dto';
import { toStreamProperty } from './stream.mapper';
import type { CurrentEpoch, DescribedStream } from './streams.repository';

/** A stream's description from its row, its current epoch and that epoch's segments. */
export function toStreamDescription(
  stream: DescribedStream,
  epoch: CurrentEpoch,
  segments: readonly SegmentRecord[],
): StreamDescriptionDto {
  // The segment list of the epoch's own scaling record: one rendering of a segment for both.
  const [current] = buildScaleRecords([epoch], segments);
  return {
    scopeName: stream.scopeName,
    streamName: stream.name,
    state: stream.state,
    createdAt: stream.createdAt,
    updatedAt: stream.updatedAt,
    configuration: toStreamProperty(stream),
    currentEpoch: epoch.epoch,
    activeSegments: current.segmentList,
    ...(epoch.epoch > 0 ? { lastScaledAt: epoch.timestamp } : {}),
    readerGroups: stream.readerGroups,
  };
}
