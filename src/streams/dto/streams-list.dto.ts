import { ApiSchema } from '@nestjs/swagger';
import { PageDto } from '../../pagination/page.dto';
import { StreamPropertyDto } from './stream-property.dto';

@ApiSchema({ name: 'StreamsList' })
export class StreamsListDto extends PageDto {
  streams: StreamPropertyDto[];
}
