import { types as pgTypes } from 'pg';
import { parseTextArray, typeParsers } from './type-parsers';

const pgTextArray = pgTypes.getTypeParser(1009 as never, 'text') as (text: string) => unknown;

describe('parseTextArray', () => {
  // As PostgreSQL writes text[] (array_out): quoted where an element needs it.
  it.each([
    '{}',
    '{a}',
    '{bench,group-3}',
    '{NULL}',
    '{a,NULL,b}',
    '{"NULL"}',
    '{""}',
    '{"a b","c,d","{e}","f\\"g","h\\\\i"}',
    '{nice,"with space",NULL,"null",null}',
    '{{a,b},{c,d}}',
    '[0:1]={a,b}',
    '{é,日本,😀}',
    '{1,2,3}',
  ])('answers %s as pg does', (text) => {
    expect(parseTextArray(text)).toEqual(pgTextArray(text));
  });

  it('splits an array without quotes itself, and hands any other to pg', () => {
    expect(parseTextArray('{x,NULL,y}')).toEqual(['x', null, 'y']);
    expect(parseTextArray('{"x,y"}')).toEqual(['x,y']);
    expect(parseTextArray('{{a},{b}}')).toEqual([['a'], ['b']]);
  });
});

describe('typeParsers', () => {
  it('reads a bigint as its text, as pg does, and leaves every other type to pg', () => {
    const int8 = typeParsers.getTypeParser(20, 'text') as (text: string) => unknown;
    for (const text of ['0', '42', '-7', '9223372036854775807']) {
      expect(int8(text)).toBe(pgTypes.getTypeParser(20, 'text')(text));
    }
    for (const oid of [16, 23, 25, 114, 1184, 3802]) {
      expect(typeParsers.getTypeParser(oid, 'text')).toBe(pgTypes.getTypeParser(oid, 'text'));
    }
    expect(typeParsers.getTypeParser(20, 'binary')).toBe(pgTypes.getTypeParser(20, 'binary'));
  });
});
