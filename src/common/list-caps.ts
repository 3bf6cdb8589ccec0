import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, getMetadataStorage, IsArray, ValidateNested } from 'class-validator';
import { FieldViolation } from './domain-error';
import { EachElementIsObject } from './validators';

/*
 * Every list in a request body has a maximum length, declared once with `ArrayMaxSize` (which
 * the OpenAPI document shows as `maxItems`). class-validator reads every element of a list before
 * it compares the list's length with its maximum, and class-transformer copies every element
 * before that: a body of a million elements would be walked a million times to be told it has
 * too many. `overlongLists` reads the same maxima from the raw body first, so that a list
 * longer than its maximum is refused by its length alone (docs/behaviour.md section 2).
 */

const LIST_ELEMENT = Symbol('listElement');

export type DtoClass = abstract new (...args: never[]) => object;

/**
 * A list of at most `max` nested DTOs of class `element`: each element an object validated as
 * that class, and the list known to {@link overlongLists}, which checks the lists inside its
 * elements in turn. Documented as an array of `element` with `maxItems`.
 */
export const ListOf = (element: () => DtoClass, max: number, noun: string): PropertyDecorator =>
  applyDecorators(
    ApiProperty({ type: () => [element()], maxItems: max }),
    IsArray(),
    ArrayMaxSize(max, { message: `must list at most $constraint1 ${noun}` }),
    ValidateNested({ each: true }),
    EachElementIsObject(),
    Type(element),
    (target: object, property: string | symbol) =>
      Reflect.defineMetadata(LIST_ELEMENT, element, target, property),
  );

/** The maximum of a list property, and the DTO of its elements when they are DTOs. */
export interface ListCap {
  property: string;
  max: number;
  /** What a list longer than `max` is told. */
  message: string;
  element?: () => DtoClass;
}

const capsByClass = new WeakMap<DtoClass, Map<string, ListCap>>();

/** The capped lists of a DTO class (its own and inherited `ArrayMaxSize` rules), by property. */
function listCaps(dto: DtoClass): Map<string, ListCap> {
  let caps = capsByClass.get(dto);
  if (!caps) {
    caps = new Map(
      getMetadataStorage()
        .getTargetValidationMetadatas(dto as unknown as new () => object, '', true, false)
        .filter((rule) => rule.name === 'arrayMaxSize')
        .map((rule): [string, ListCap] => {
          const max = Number(rule.constraints[0]);
          const message =
            typeof rule.message === 'string'
              ? rule.message.replace('$constraint1', String(max))
              : `must hold at most ${max} items`;
          const element = Reflect.getMetadata(
            LIST_ELEMENT,
            dto.prototype as object,
            rule.propertyName,
          ) as (() => DtoClass) | undefined;
          return [rule.propertyName, { property: rule.propertyName, max, message, element }];
        }),
    );
    capsByClass.set(dto, caps);
  }
  return caps;
}

/** The maximum of `dto`'s list `property`, if it is a capped list. */
export const listCapOf = (dto: DtoClass, property: string): ListCap | undefined =>
  listCaps(dto).get(property);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Each list of `body` (a raw body, before any transformation) that is longer than the maximum
 * its DTO declares, named by its path. An over-long list is not read; the elements of the other
 * lists declared with {@link ListOf} are checked in turn, so the whole check costs at most the
 * number of elements the body holds, and is done before anything reads them one by one.
 */
export function overlongLists(dto: DtoClass, body: unknown, path = ''): FieldViolation[] {
  if (!isObject(body)) return [];
  return [...listCaps(dto).values()].flatMap(({ property, max, message, element }) => {
    const list = body[property];
    if (!Array.isArray(list)) return [];
    const field = path ? `${path}.${property}` : property;
    if (list.length > max) return [{ field, message }];
    if (!element) return [];
    return list.flatMap((item, i) => overlongLists(element(), item, `${field}[${i}]`));
  });
}
