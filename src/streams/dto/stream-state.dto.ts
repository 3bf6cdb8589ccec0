import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsIn } from 'class-validator';

export const STREAM_STATES = ['SEALED'] as const;

@ApiSchema({ name: 'StreamState' })
export class StreamStateDto {
  @ApiProperty({ enum: STREAM_STATES })
  @IsIn(STREAM_STATES, { message: 'streamState must be SEALED' })
  streamState: 'SEALED';
}
