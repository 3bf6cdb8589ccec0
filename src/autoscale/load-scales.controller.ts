import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiExtension, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Needs } from '../auth/needs';
import { Operation, OperationOf } from '../common/operations';
import { ApiProblemResponses } from '../openapi/api-problem-responses';
import { LoadScaleListDto, LoadScalesQueryDto } from './dto/load-scales.dto';
import { LoadScalesService } from './load-scales.service';

/** A stream's recent scales by load (docs/extensions.md section 11). */
@ApiTags('Streams')
@Controller('v1/scopes/:scopeName/streams/:streamName/load')
export class LoadScalesController {
  constructor(private readonly scales: LoadScalesService) {}

  /**
   * The stream's recent scales by load, the newest first, from their audit rows: for whoever
   * may read the stream (extension).
   */
  @Get()
  @ApiExtension('x-extension', true)
  @ApiOkResponse({ type: LoadScaleListDto, description: 'The recent scales by load.' })
  @ApiProblemResponses(400, 404, 500, 503)
  @Needs.readOnStream()
  @OperationOf(Operation.getLoadScales)
  getLoadScales(
    @Param('scopeName') scopeName: string,
    @Param('streamName') streamName: string,
    @Query() query: LoadScalesQueryDto,
  ): Promise<LoadScaleListDto> {
    return this.scales.recent(scopeName, streamName, query.limit);
  }
}
