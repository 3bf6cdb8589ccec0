import { ApiProperty } from '@nestjs/swagger';

/*
 * The contract's number formats. The Swagger plugin sees a TypeScript `number` and says only
 * `number`; these say which. Whether the property is required still comes from the plugin
 * (`?` in the class), since `required` is left unset here.
 */

/** An integer field of the contract's int32 format. */
export const ApiInt32 = (): PropertyDecorator => ApiProperty({ type: 'integer', format: 'int32' });

/** An integer field of the contract's int64 format (exact in JSON up to 2^53-1). */
export const ApiInt64 = (): PropertyDecorator => ApiProperty({ type: 'integer', format: 'int64' });

/** A floating-point field of the contract's double format. */
export const ApiDouble = (): PropertyDecorator => ApiProperty({ type: 'number', format: 'double' });
