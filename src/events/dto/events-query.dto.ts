import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
import { IsQueryInteger, IsScopeName } from '../../common/validators';
import { POSITION_RULE } from '../feed-position';

/** The parameters of `GET /v1/events` (docs/extensions.md section 8). */
export class EventsQueryDto {
  /**
   * A position in the feed (an event's id, or `0`): the events after it. Without it the answer
   * is empty and gives the newest position, a starting point to follow from.
   */
  @ApiPropertyOptional({ type: 'string', pattern: '^[0-9]{1,19}$', example: '42' })
  @IsOptional()
  @IsString()
  @Matches(/^\d{1,19}$/, { message: `since must be ${POSITION_RULE}` })
  since?: string;

  /** Only the events of this scope (the scope's own, its streams' and its reader groups'). */
  @IsOptional()
  @IsScopeName()
  scope?: string;

  /** At most this many events (1 to 1000). */
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 1000, default: 100 })
  @IsOptional()
  @IsQueryInteger(1, 1000, 'limit must be an integer from 1 to 1000')
  limit?: number;

  /** With `since`: seconds (0 to 60) an empty answer waits for the first event. */
  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 60, default: 0 })
  @IsOptional()
  @IsQueryInteger(0, 60, 'wait must be a whole number of seconds from 0 to 60')
  wait?: number;
}
