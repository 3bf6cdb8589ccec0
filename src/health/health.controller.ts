import { applyDecorators, Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiParam, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { Needs } from '../auth/needs';
import type { Principal } from '../auth/principal';
import { RequestAccess } from '../auth/request-access.decorator';
import { contributorPath } from './contributor-path';
import { HEALTH_DETAILS_REF, HealthResultDto } from './dto/health-result.dto';
import { ApiProblemResponses } from '../openapi/api-problem-responses';
import { HealthService } from './health.service';
import { HealthStatus } from './health-status';

/** The `{id}` routes: a contributor, possibly nested; unknown ones are 404. */
const CONTRIBUTOR = applyDecorators(
  ApiParam({
    name: 'id',
    type: String,
    description: 'A health contributor (`database`), or a path to one below it (`memory/heap`)',
  }),
  ApiProblemResponses(400, 404, 500),
);
const STATUS_REF = { $ref: getSchemaPath('HealthStatus') };

/**
 * The contract's health routes. Literal routes are declared before `{id}` so they win; they
 * answer 200 with the value even when DOWN (the probes outside /v1 answer 503). A bare string
 * or boolean is sent as JSON (`"UP"`, `true`), as every answer is (`ServiceHttpAdapter`).
 */
@ApiTags('Health')
@ApiProblemResponses(500)
@Controller('v1/health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  /** The health of the service, with every contributor below it. */
  @Get()
  @Needs.health()
  getHealth(@RequestAccess() access: Principal | undefined): Promise<HealthResultDto> {
    return this.health.healthFor(access);
  }

  /** The details of the service. */
  @Get('details')
  @ApiOkResponse({ schema: HEALTH_DETAILS_REF })
  @Needs.healthDetails()
  async getDetails(): Promise<Record<string, string>> {
    return (await this.health.health()).details;
  }

  /** The details of a health contributor. */
  @Get('details/*id')
  @CONTRIBUTOR
  @ApiOkResponse({ schema: HEALTH_DETAILS_REF })
  @Needs.healthDetails()
  async getContributorDetails(@Param('id') id: string[]): Promise<Record<string, string>> {
    return (await this.health.health(contributorPath(id))).details;
  }

  /** Whether the service's process works. */
  @Get('liveness')
  @ApiOkResponse({ type: Boolean })
  @Needs.health()
  getLiveness(): Promise<boolean> {
    return this.health.liveness();
  }

  /** Whether a health contributor works. */
  @Get('liveness/*id')
  @CONTRIBUTOR
  @ApiOkResponse({ type: Boolean })
  @Needs.health()
  getContributorLiveness(@Param('id') id: string[]): Promise<boolean> {
    return this.health.liveness(contributorPath(id));
  }

  /** Whether the service can serve requests (status UP). */
  @Get('readiness')
  @ApiOkResponse({ type: Boolean })
  @Needs.health()
  async getReadiness(): Promise<boolean> {
    return (await this.health.health()).readiness;
  }

  /** Whether a health contributor is ready. */
  @Get('readiness/*id')
  @CONTRIBUTOR
  @ApiOkResponse({ type: Boolean })
  @Needs.health()
  async getContributorReadiness(@Param('id') id: string[]): Promise<boolean> {
    return (await this.health.health(contributorPath(id))).readiness;
  }

  /** The status of the service. */
  @Get('status')
  @ApiOkResponse({ schema: STATUS_REF })
  @Needs.health()
  async getStatus(): Promise<HealthStatus> {
    return (await this.health.health()).status;
  }

  /** The status of a health contributor. */
  @Get('status/*id')
  @CONTRIBUTOR
  @ApiOkResponse({ schema: STATUS_REF })
  @Needs.health()
  async getContributorStatus(@Param('id') id: string[]): Promise<HealthStatus> {
    return (await this.health.health(contributorPath(id))).status;
  }

  /** The health of a health contributor, with the contributors below it. */
  @Get('*id')
  @CONTRIBUTOR
  @Needs.health()
  getContributorHealth(
    @Param('id') id: string[],
    @RequestAccess() access: Principal | undefined,
  ): Promise<HealthResultDto> {
    return this.health.healthFor(access, contributorPath(id));
  }
}
