import { ApiProperty, ApiSchema } from '@nestjs/swagger';

export class ReaderGroupSummaryDto {
  readerGroupName: string;
}

@ApiSchema({ name: 'ReaderGroupsList' })
export class ReaderGroupsListDto {
  // The contract describes the items inline, without a schema name of their own.
  @ApiProperty({
    type: 'array',
    items: { type: 'object', properties: { readerGroupName: { type: 'string' } } },
  })
  readerGroups: ReaderGroupSummaryDto[];
}
