import {
  Body,
  Controller,
  Get,
  HttpException,
  Param,
  Post,
  Put,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import * as floor from './floor-handlers';

type Json = Record<string, unknown>;

/** A handler's answer; its failures become the status the node floor answers. */
const answer = (work: Promise<unknown>): Promise<unknown> =>
  work.catch((error: unknown) => {
    throw new HttpException('', floor.statusOf(error));
  });

const callerOf = (req: Request): floor.Caller => ({
  address: req.socket.remoteAddress,
  userAgent: req.headers['user-agent'],
});

/** The benchmark's routes, each one call to the handler the node floor calls. */
@Controller()
export class NestFloorController {
  /** Where a starting process is asked whether it serves yet (ServiceProcess.ready). */
  @Get('ping')
  ping(): void {}

  @Get('readyz')
  readyz(): Promise<unknown> {
    return answer(floor.readyz());
  }

  @Get('v1/health')
  health(): Promise<unknown> {
    return answer(floor.health());
  }

  @Get('v1/scopes')
  listScopes(): Promise<unknown> {
    return answer(floor.listScopes());
  }

  @Get('v1/scopes/:scope')
  getScope(@Param('scope') scope: string): Promise<unknown> {
    return answer(floor.getScope(scope));
  }

  @Get('v1/scopes/:scope/streams')
  async listStreams(
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
    @Param('scope') scope: string,
    @Query('filter_type') type?: string,
    @Query('filter_value') value?: string,
    @Query('limit') limit?: string,
    @Query('continuationToken') continuationToken?: string,
  ): Promise<unknown> {
    const page = { limit, continuationToken };
    const body = await answer(
      floor.listStreams(scope, (type === 'tag' && value) || undefined, page),
    );
    const link = floor.pageLink(req.originalUrl, body, page);
    if (link !== undefined) res.setHeader('Link', link);
    return body;
  }

  @Post('v1/scopes/:scope/streams')
  createStream(
    @Param('scope') scope: string,
    @Body() body: Json,
    @Req() req: Request,
  ): Promise<unknown> {
    return answer(floor.createStream(scope, body, callerOf(req)));
  }

  @Get('v1/scopes/:scope/streams/:name')
  getStream(@Param('scope') scope: string, @Param('name') name: string): Promise<unknown> {
    return answer(floor.getStream(scope, name));
  }

  @Put('v1/scopes/:scope/streams/:name')
  updateStream(
    @Param('scope') scope: string,
    @Param('name') name: string,
    @Body() body: Json,
    @Req() req: Request,
  ): Promise<unknown> {
    return answer(floor.updateStream(scope, name, body, callerOf(req)));
  }

  @Get('v1/scopes/:scope/streams/:name/scaling-events')
  scalingEvents(
    @Param('scope') scope: string,
    @Param('name') name: string,
    @Query('from') from?: string,
    @Query('to') to?: string,
  ): Promise<unknown> {
    return answer(floor.scalingEvents(scope, name, from, to));
  }

  @Post('v1/scopes/:scope/readergroups')
  createReaderGroup(
    @Param('scope') scope: string,
    @Body() body: Json,
    @Req() req: Request,
  ): Promise<unknown> {
    return answer(floor.createReaderGroup(scope, body, callerOf(req)));
  }

  @Get('v1/scopes/:scope/readergroups/:group')
  getReaderGroup(@Param('scope') scope: string, @Param('group') group: string): Promise<unknown> {
    return answer(floor.getReaderGroup(scope, group));
  }
}
