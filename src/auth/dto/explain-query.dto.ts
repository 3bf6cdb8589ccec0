import { ApiProperty } from '@nestjs/swagger';
import { IsIn, Matches } from 'class-validator';
import { IsRequired } from '../../common/validators';

const NAME = '[A-Za-z0-9._-]{1,258}';
/** The resources ACLs name: the root, a scope, a stream or a reader group. */
const RESOURCE = new RegExp(`^prn::/(scope:${NAME}(/(stream|reader-group):${NAME})?)?$`);

const EXPLAINED_PERMISSIONS = ['READ', 'READ_UPDATE'] as const;

export class ExplainQueryDto {
  /**
   * A resource as ACLs name it: `prn::/`, `prn::/scope:S`, `prn::/scope:S/stream:T` or
   * `prn::/scope:S/reader-group:G`.
   */
  @ApiProperty({ example: 'prn::/scope:sales/stream:orders' })
  @IsRequired()
  @Matches(RESOURCE, {
    message:
      'resource must be prn::/, prn::/scope:S, prn::/scope:S/stream:T or prn::/scope:S/reader-group:G',
  })
  resource: string;

  @ApiProperty({ enum: EXPLAINED_PERMISSIONS })
  @IsRequired()
  @IsIn(EXPLAINED_PERMISSIONS, { message: 'permission must be READ or READ_UPDATE' })
  permission: (typeof EXPLAINED_PERMISSIONS)[number];
}
