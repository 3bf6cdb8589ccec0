import { Controller, Get, Param } from '@nestjs/common';
import { ApiExtension, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Needs } from '../auth/needs';
import { Operation, OperationOf } from '../common/operations';
import { ApiProblemResponses } from '../openapi/api-problem-responses';
import { ScopeComplianceDto } from './dto/scope-compliance.dto';
import { ScopeComplianceService } from './scope-compliance.service';

/** How a scope stands against its policy (docs/extensions.md section 10). */
@ApiTags('Scopes')
@Controller('v1/scopes/:scopeName/policy/compliance')
export class ScopeComplianceController {
  constructor(private readonly compliance: ScopeComplianceService) {}

  /**
   * The scope's user streams and active segments now, the scope-wide limits they exceed, and the
   * streams that break a stream rule or have more segments than a stream may (extension).
   */
  @Get()
  @ApiExtension('x-extension', true)
  @ApiOkResponse({ type: ScopeComplianceDto })
  @ApiProblemResponses(400, 404, 500, 503)
  @Needs.readOnScope()
  @OperationOf(Operation.getScopeCompliance)
  getScopeCompliance(@Param('scopeName') scopeName: string): Promise<ScopeComplianceDto> {
    return this.compliance.report(scopeName);
  }
}
