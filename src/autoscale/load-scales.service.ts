import { Injectable } from '@nestjs/common';
import { AuditService } from '../audit/audit.service';
import { streamResource } from '../auth/resources';
import { StreamsService } from '../streams/streams.service';
import type { AuditEventDto } from '../audit/dto/audit-event.dto';
import {
  DEFAULT_LOAD_SCALES,
  type LoadScaleDto,
  type LoadScaleListDto,
} from './dto/load-scales.dto';
import type { ScaleByLoadRecord } from './load-result';

/**
 * A stream's recent scales by load (docs/extensions.md section 11), read from their audit rows:
 * what a reader of the stream may see of them, where the whole trail takes the root's right.
 */
@Injectable()
export class LoadScalesService {
  constructor(
    private readonly streams: StreamsService,
    private readonly audit: AuditService,
  ) {}

  /**
   * The newest `limit` scales, newest first; 404 for a missing scope or stream. Only those since
   * the stream was created: a deleted stream of the same name left its rows behind.
   */
  async recent(
    scope: string,
    name: string,
    limit = DEFAULT_LOAD_SCALES,
  ): Promise<LoadScaleListDto> {
    const { createdAt } = await this.streams.withTimes(scope, name);
    const rows = await this.audit.latestScalesByLoad(streamResource(scope, name), createdAt, limit);
    return { scales: rows.map(toLoadScale) };
  }
}

/** A scale by load as its audit row recorded it, the segments as the contract shows them. */
function toLoadScale({ time, principal, after }: AuditEventDto): LoadScaleDto {
  const record = after as ScaleByLoadRecord;
  return {
    at: time,
    principal,
    segment: record.segment,
    direction: record.direction,
    because: record.because,
    epoch: record.epoch,
    sealedSegments: record.sealedSegments,
    newSegments: record.newSegments.map(({ number, startTime, keyStart, keyEnd }) => ({
      number,
      startTime,
      keyStart,
      keyEnd,
    })),
  };
}
