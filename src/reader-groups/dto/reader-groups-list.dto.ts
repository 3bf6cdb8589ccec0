import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { PageDto } from '../../pagination/page.dto';

export class ReaderGroupSummaryDto {
  readerGroupName: string;
}

@ApiSchema({ name: 'ReaderGroupsList' })
export class ReaderGroupsListDto extends PageDto {
  // The contract describes the items inline, without a schema name of their own.
  @ApiProperty({
    type: 'array',
    items: { type: 'object', properties: { readerGroupName: { type: 'string' } } },
  })
  readerGroups: ReaderGroupSummaryDto[];
}
