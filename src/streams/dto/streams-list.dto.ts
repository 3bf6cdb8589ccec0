import { ApiSchema } from '@nestjs/swagger';
import { StreamPropertyDto } from './stream-property.dto';

@ApiSchema({ name: 'StreamsList' })
export class StreamsListDto {
  streams: StreamPropertyDto[];
}
