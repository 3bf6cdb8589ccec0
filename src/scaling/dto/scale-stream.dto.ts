import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsNumber, ValidateNested } from 'class-validator';
import { EachElement, EachElementIsObject, IsRequired, NumberRule } from '../../common/validators';
import { ApiDouble } from '../../openapi/api-formats';
import { perArray, repeatsIn } from '../../common/list-elements';
import { MAX_NEW_RANGES, MAX_SEALED_SEGMENTS, overlappingRanges } from '../manual-scale';
import { MAX_SEGMENT_NUMBER } from '../segment-number';

/*
 * The body of a scale (docs/extensions.md section 7, rule 1): every problem of its shape is a
 * 400 naming its field, before the stream is looked up.
 */

const overlapsIn = perArray(overlappingRanges);

const KEY = 'must be a number from 0 to 1';

@ApiSchema({ name: 'KeyRange' })
export class KeyRangeDto {
  /** Where the range starts (included), in [0, 1). */
  @ApiDouble()
  @IsRequired()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: KEY })
  @NumberRule('isKey', (value) => (value < 0 || value > 1 ? KEY : undefined))
  keyStart: number;

  /** Where the range ends (excluded), in (0, 1], above `keyStart`. */
  @ApiDouble()
  @IsRequired()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: KEY })
  @NumberRule('isKey', (value) => (value < 0 || value > 1 ? KEY : undefined))
  @NumberRule('isAfterKeyStart', (value, range) => {
    const { keyStart } = range as KeyRangeDto;
    return typeof keyStart === 'number' && value <= keyStart
      ? 'must be greater than keyStart'
      : undefined;
  })
  keyEnd: number;
}

@ApiSchema({ name: 'ScaleStreamRequest' })
export class ScaleStreamDto {
  /**
   * The numbers of the active segments to seal: at least one, each once. At most 1,000.
   * @example [2, 3]
   */
  @ApiProperty({
    type: 'integer',
    format: 'int32',
    isArray: true,
    minItems: 1,
    maxItems: MAX_SEALED_SEGMENTS,
    minimum: 0,
  })
  @IsRequired()
  @IsArray()
  @ArrayNotEmpty({ message: 'must name at least one segment' })
  @ArrayMaxSize(MAX_SEALED_SEGMENTS, {
    message: `must name at most ${MAX_SEALED_SEGMENTS} segments`,
  })
  @EachElement('isSegmentToSeal', (element, index, all) => {
    const number = Number.isInteger(element) ? (element as number) : -1;
    if (number < 0 || number > MAX_SEGMENT_NUMBER) {
      return `must be an integer from 0 to ${MAX_SEGMENT_NUMBER}`;
    }
    const first = repeatsIn(all).get(index);
    return first === undefined ? undefined : `repeats sealedSegments[${first}]`;
  })
  sealedSegments: number[];

  /**
   * The key ranges of the new segments, which must cover exactly the key space of the sealed
   * ones, without overlapping each other; numbered in this order. At most 1,000.
   * @example [{"keyStart": 0.25, "keyEnd": 0.4}, {"keyStart": 0.4, "keyEnd": 0.75}]
   */
  @ApiProperty({ type: () => [KeyRangeDto], minItems: 1, maxItems: MAX_NEW_RANGES })
  @IsRequired()
  @IsArray()
  @ArrayNotEmpty({ message: 'must hold at least one range' })
  @ArrayMaxSize(MAX_NEW_RANGES, { message: `must hold at most ${MAX_NEW_RANGES} ranges` })
  @ValidateNested({ each: true })
  @EachElementIsObject()
  @Type(() => KeyRangeDto)
  @EachElement('isDisjointRange', (_element, index, all) => {
    const other = overlapsIn(all).get(index);
    return other === undefined ? undefined : `overlaps newRanges[${other}]`;
  })
  newRanges: KeyRangeDto[];
}
