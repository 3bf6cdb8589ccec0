import { buildScaleRecords } from '../scaling/scaling-history';
import type { StreamSnapshot } from '../streams/streams.service';
import { toStreamProperty } from '../streams/stream.mapper';
import { StreamDescriptionDto } from './dto/stream-description.dto';

/**
 * A stream's description from its current state and the reader groups that read it: those
 * named, and how many others the caller may not read.
 */
export function toStreamDescription(
  { stream, epoch, segments }: StreamSnapshot,
  readerGroups: { names: string[]; hidden: number },
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
    readerGroups: readerGroups.names,
    ...(readerGroups.hidden > 0 ? { hiddenReaderGroups: readerGroups.hidden } : {}),
  };
}
