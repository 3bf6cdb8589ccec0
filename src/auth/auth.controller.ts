import { Controller, Get, Query } from '@nestjs/common';
import { ApiExtension, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Operation, OperationOf } from '../common/operations';
import { ApiProblemResponses } from '../openapi/api-problem-responses';
import { Permission } from './acl';
import type { Explanation, Identity } from './auth.service';
import { AuthService } from './auth.service';
import { ExplainQueryDto } from './dto/explain-query.dto';
import { ExplanationDto, IdentityDto } from './dto/identity.dto';
import { Needs } from './needs';
import type { Principal } from './principal';
import { RequestAccess } from './request-access.decorator';

/** The caller about itself (docs/extensions.md section 9). */
@ApiTags('Scopes')
@ApiExtension('x-extension', true)
@Controller('v1/auth')
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  /** Who the caller is: its principal, how it signed in, its groups and its ACL (extension). */
  @Get('whoami')
  @ApiOkResponse({ type: IdentityDto })
  @ApiProblemResponses(500)
  @Needs.anyAccount()
  @OperationOf(Operation.whoami)
  whoami(@RequestAccess() access: Principal | undefined): Identity {
    return this.auth.whoami(access);
  }

  /**
   * Whether the caller has a permission on a resource, and which entry of its ACL decided it:
   * the answer of the same check every request meets (extension).
   */
  @Get('explain')
  @ApiOkResponse({ type: ExplanationDto })
  @ApiProblemResponses(400, 500)
  @Needs.anyAccount()
  @OperationOf(Operation.explainAccess)
  explainAccess(
    @Query() query: ExplainQueryDto,
    @RequestAccess() access: Principal | undefined,
  ): Explanation {
    return this.auth.explain(query.resource, query.permission as Permission, access);
  }
}
