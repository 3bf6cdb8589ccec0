import { Injectable } from '@nestjs/common';
import type { Principal } from '../auth/principal';
import { Tagged } from '../conditional/resource-version';
import type { Db } from '../database/transaction-host';
import { InjectDb } from '../database/transaction-host';
import { ReaderGroupsService } from '../reader-groups/reader-groups.service';
import { StreamsService } from '../streams/streams.service';
import { StreamDescriptionDto } from './dto/stream-description.dto';
import { toStreamDescription } from './stream-description';

/**
 * Describing a stream (docs/extensions.md section 4): what the streams and the reader groups
 * know of it, read in one snapshot, so the answer shows one instant.
 */
@Injectable()
export class DescribeService {
  constructor(
    @InjectDb() private readonly db: Db,
    private readonly streams: StreamsService,
    private readonly groups: ReaderGroupsService,
  ) {}

  /** The description as the caller (`access`; anyone without it) may see it. */
  describe(scope: string, name: string, access?: Principal): Promise<Tagged<StreamDescriptionDto>> {
    return this.db.withTransaction({ isolationLevel: 'REPEATABLE READ' }, async () => {
      const snapshot = await this.streams.currentState(scope, name);
      const readerGroups = await this.groups.groupsReading(scope, name, access);
      return Tagged.of(toStreamDescription(snapshot, readerGroups), snapshot.stream.revision);
    });
  }
}
