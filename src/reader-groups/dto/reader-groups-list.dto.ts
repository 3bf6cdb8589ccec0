import { ApiSchema } from '@nestjs/swagger';

export class ReaderGroupSummaryDto {
  readerGroupName: string;
}

@ApiSchema({ name: 'ReaderGroupsList' })
export class ReaderGroupsListDto {
  readerGroups: ReaderGroupSummaryDto[];
}
