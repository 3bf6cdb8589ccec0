import { Controller, Get, UseInterceptors } from '@nestjs/common';
import {
  ApiExtension,
  ApiOkResponse,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { Needs } from '../auth/needs';
import { SkipThrottle } from '@nestjs/throttler';
import { ApiProblemResponses } from '../openapi/api-problem-responses';
import { LivenessAnswerDto, ReadinessAnswerDto } from './dto/probe-answer.dto';
import { HealthService } from './health.service';
import { ProbeStatusInterceptor } from './probe-status.interceptor';

/** Where orchestrators and load balancers probe (their paths are logged at debug level). */
export const PROBE_PATHS = ['/ping', '/livez', '/readyz'];

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
  @UseInterceptors(ProbeStatusInterceptor)
  async getLivez(): Promise<LivenessAnswerDto> {
    return { liveness: await this.health.liveness() };
  }

  /** 200 when the service can serve requests, 503 otherwise (and from the start of a shutdown). */
  @Get('readyz')
  @ApiServiceUnavailableResponse({
    description: 'Not ready: send no traffic',
    type: ReadinessAnswerDto,
  })
  @Needs.health()
  @UseInterceptors(ProbeStatusInterceptor)
  async getReadyz(): Promise<ReadinessAnswerDto> {
    const { readiness, status } = await this.health.health();
    return { readiness, status };
  }
}
