import { Controller, Get, Param } from '@nestjs/common';
import { ApiExtension, ApiTags } from '@nestjs/swagger';
import { Needs } from '../auth/needs';
import type { Principal } from '../auth/principal';
import { RequestAccess } from '../auth/request-access.decorator';
import { Operation, OperationOf } from '../common/operations';
import { TaggedAnswer } from '../conditional/conditional.decorators';
import type { Tagged } from '../conditional/resource-version';
import { ApiProblemResponses } from '../openapi/api-problem-responses';
import { DescribeService } from './describe.service';
import { StreamDescriptionDto } from './dto/stream-description.dto';

@ApiTags('Streams')
@Controller('v1/scopes/:scopeName/streams/:streamName/description')
export class DescribeController {
  constructor(private readonly descriptions: DescribeService) {}

  /**
   * Describes a stream: state, times, configuration, current epoch and segments, and the
   * reader groups that read it, those the caller may read (extension). Carries the stream's
   * entity tag.
   */
  @Get()
  @ApiExtension('x-extension', true)
  @TaggedAnswer(200, StreamDescriptionDto)
  @ApiProblemResponses(400, 404, 500, 503)
  @Needs.readOnStream()
  @OperationOf(Operation.describeStream)
  describeStream(
    @Param('scopeName') scopeName: string,
    @Param('streamName') streamName: string,
    @RequestAccess() access: Principal | undefined,
  ): Promise<Tagged<StreamDescriptionDto>> {
    return this.descriptions.describe(scopeName, streamName, access);
  }
}
