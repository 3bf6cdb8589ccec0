import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import {
  ApiExtension,
  ApiOkResponse,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { Needs } from '../auth/needs';
import { SkipThrottle } from '@nestjs/throttler';
import type { Response } from 'express';
import { ApiProblemResponses } from '../common/http/api-problem-responses';
import { LivenessAnswerDto, ReadinessAnswerDto } from './dto/probe-answer.dto';
import { HealthService } from './health.service';

/** Probe routes for orchestrators and load balancers: the answer is in the status code. */
@ApiTags('Health')
@SkipThrottle()
@ApiExtension('x-extension', true)
@ApiProblemResponses(500)
@Controller()
export class ProbesController {
  constructor(private readonly health: HealthService) {}

  /** Answers 200 while the process serves HTTP. */
  @Get('ping')
  @ApiOkResponse({ description: 'The process serves HTTP' })
  @Needs.health()
  ping(): void {}

  /** 200 while the process works (a database outage leaves it alive), 503 otherwise. */
  @Get('livez')
  @ApiServiceUnavailableResponse({
    description: 'The process no longer works: restart it',
    type: LivenessAnswerDto,
  })
  @Needs.health()
  async getLivez(@Res({ passthrough: true }) res: Response): Promise<LivenessAnswerDto> {
    const liveness = await this.health.liveness();
    if (!liveness) res.status(HttpStatus.SERVICE_UNAVAILABLE);
    return { liveness };
  }

  /** 200 when the service can serve requests, 503 otherwise (and from the start of a shutdown). */
  @Get('readyz')
  @ApiServiceUnavailableResponse({
    description: 'Not ready: send no traffic',
    type: ReadinessAnswerDto,
  })
  @Needs.health()
  async getReadyz(@Res({ passthrough: true }) res: Response): Promise<ReadinessAnswerDto> {
    const { readiness, status } = await this.health.health();
    if (!readiness) res.status(HttpStatus.SERVICE_UNAVAILABLE);
    return { readiness, status };
  }
}
