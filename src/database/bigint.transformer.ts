import { ValueTransformer } from 'typeorm';

/**
 * PostgreSQL `bigint` arrives as a string. Every int64 this service stores was checked to be a
 * safe integer on the way in, so it converts back to a number exactly.
 */
export const bigintToNumber: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};
