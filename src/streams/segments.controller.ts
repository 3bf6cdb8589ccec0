import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post, Query } from '@nestjs/common';
import { ApiExtension, ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Actor } from '../audit/actor';
import { RequestActor } from '../audit/actor';
import { Needs } from '../auth/needs';
import { Operation, OperationOf } from '../common/operations';
import { ConditionalWrite, TaggedAnswer } from '../conditional/conditional.decorators';
import { IfMatch } from '../conditional/conditional-headers';
import type { TagCondition } from '../conditional/entity-tag';
import type { Tagged } from '../conditional/resource-version';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { ApiProblemCodes, ApiProblemResponses } from '../openapi/api-problem-responses';
import { DryRunQueryDto } from '../common/dry-run-query.dto';
import { ScaleStreamResultDto } from '../scaling/dto/scale-stream-result.dto';
import { ScaleStreamDto } from '../scaling/dto/scale-stream.dto';
import { SegmentDetailDto } from '../scaling/dto/segment-detail.dto';
import { SegmentsQueryDto } from '../scaling/dto/segments-query.dto';
import { StreamSegmentsDto } from '../scaling/dto/stream-segments.dto';
import { toSegmentNumber } from '../scaling/segment-number';
import { toInstant } from '../scaling/time-window';
import { SegmentsService } from './segments.service';

/** The segments of a stream over time, and scaling it by hand (docs/extensions.md section 7). */
@ApiTags('Streams')
@Controller('v1/scopes/:scopeName/streams/:streamName')
export class SegmentsController {
  constructor(private readonly segments: SegmentsService) {}

  /**
   * Scales a stream by hand: seals active segments and opens new ones over exactly their key
   * space, in a new epoch (extension). With `dryRun=true`, answers the same and changes nothing.
   */
  @Post('scale')
  @HttpCode(HttpStatus.OK)
  @Idempotent()
  @ApiExtension('x-extension', true)
  @TaggedAnswer(200, ScaleStreamResultDto)
  @ApiProblemCodes(412, {
    STREAM_SEALED: 'the stream is sealed',
    SEGMENT_NOT_ACTIVE: 'a segment to seal is not in the current epoch (`detail` names them)',
    BELOW_MIN_SEGMENTS: "the scale would leave fewer segments than the policy's `minSegments`",
    PRECONDITION_FAILED: '`If-Match` names no current entity tag (checked last)',
  })
  @ConditionalWrite()
  @ApiProblemCodes(400, {
    RANGES_DO_NOT_MATCH: 'the new ranges do not cover exactly the key space of the sealed segments',
  })
  @ApiProblemResponses(400, 404, 413, 415, 500, 503)
  @Needs.readUpdateOnStream()
  @OperationOf(Operation.scaleStream)
  scaleStream(
    @RequestActor() actor: Actor,
    @Param('scopeName') scopeName: string,
    @Param('streamName') streamName: string,
    @Query() query: DryRunQueryDto,
    @Body() body: ScaleStreamDto,
    @IfMatch() condition: TagCondition | undefined,
  ): Promise<Tagged<ScaleStreamResultDto>> {
    const dryRun = query.dryRun === 'true';
    return this.segments.scale(actor, scopeName, streamName, body, { dryRun, condition });
  }

  /** The segments active at a moment (default: now), with the stream's entity tag (extension). */
  @Get('segments')
  @ApiExtension('x-extension', true)
  @TaggedAnswer(200, StreamSegmentsDto)
  @ApiProblemResponses(400, 404, 500, 503)
  @Needs.readOnStream()
  @OperationOf(Operation.getSegments)
  getSegments(
    @Param('scopeName') scopeName: string,
    @Param('streamName') streamName: string,
    @Query() query: SegmentsQueryDto,
  ): Promise<Tagged<StreamSegmentsDto>> {
    return this.segments.segmentsAt(scopeName, streamName, toInstant(query.at, 'at'));
  }

  /** One segment: its key range, its life, its predecessors and successors (extension). */
  @Get('segments/:number')
  @ApiExtension('x-extension', true)
  @ApiParam({ name: 'number', schema: { type: 'integer', format: 'int32', minimum: 0 } })
  @ApiOkResponse({ type: SegmentDetailDto, description: 'The segment.' })
  @ApiProblemCodes(404, { SEGMENT_NOT_FOUND: 'the stream never had a segment of that number' })
  @ApiProblemResponses(400, 404, 500, 503)
  @Needs.readOnStream()
  @OperationOf(Operation.getSegment)
  getSegment(
    @Param('scopeName') scopeName: string,
    @Param('streamName') streamName: string,
    @Param('number') number: string,
  ): Promise<SegmentDetailDto> {
    return this.segments.segment(scopeName, streamName, toSegmentNumber(number));
  }
}
