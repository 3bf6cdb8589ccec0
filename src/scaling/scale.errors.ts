import { listed } from '../common/bounded-text';
import { DomainError } from '../common/domain-error';
import type { KeyRange } from './key-ranges';
import { joinedBlocks } from './key-ranges';

const blocksText = (ranges: readonly KeyRange[]): string =>
  listed(joinedBlocks(ranges), (block) => `[${block.keyStart}, ${block.keyEnd})`, ' ');

/** A segment to seal is not one of the current epoch's (docs/extensions.md section 7, rule 3). */
export class SegmentNotActiveError extends DomainError {
  readonly kind = 'precondition';
  readonly code = 'SEGMENT_NOT_ACTIVE';

  constructor(
    readonly segments: number[],
    epoch: number,
  ) {
    super(
      segments.length === 1
        ? `Segment ${segments[0]} is not active in the current epoch (${epoch})`
        : `Segments ${listed(segments, String)} are not active in the current epoch (${epoch})`,
    );
  }
}

/** The new ranges do not cover exactly what the sealed segments cover (rule 4). */
export class RangesDoNotMatchError extends DomainError {
  readonly kind = 'invalid';
  readonly code = 'RANGES_DO_NOT_MATCH';

  constructor(sealed: readonly KeyRange[], newRanges: readonly KeyRange[]) {
    super(
      'The new ranges must cover exactly the key space of the sealed segments: the sealed ' +
        `segments cover ${blocksText(sealed)}, the new ranges ${blocksText(newRanges)}`,
    );
  }
}

/** A scale would leave fewer active segments than the scaling policy's minimum (rule 5). */
export class BelowMinSegmentsError extends DomainError {
  readonly kind = 'precondition';
  readonly code = 'BELOW_MIN_SEGMENTS';

  constructor(count: number, minSegments: number) {
    super(
      `The scale would leave ${count} active segment${count === 1 ? '' : 's'}; the scaling ` +
        `policy needs at least ${minSegments}`,
    );
  }
}
