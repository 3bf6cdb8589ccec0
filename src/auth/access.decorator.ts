import { SetMetadata } from '@nestjs/common';
import { Permission } from './acl';

export type PathParams = Record<string, string>;
/** A request's query parameters, as Express parses them. */
export type QueryParams = Record<string, unknown>;

/** A permission needed on a resource. */
export interface AccessNeed {
  permission: Permission;
  resource: string;
}

/** What a route needs when authentication is on. */
export interface AccessRule {
  permission: Permission;
  /** The resource the permission is needed on, from the path's (and the query's) parameters. */
  resource(params: PathParams, query?: QueryParams): string;
  /**
   * What the request's body names that the caller must also be permitted, asked with the
   * route's own permission, before the body is validated (or anything looked up): a part that
   * cannot be read names nothing, and the validation refuses it after.
   */
  named?(body: unknown, params: PathParams): AccessNeed[];
  /** Health and probe routes: open while AUTH_HEALTH_OPEN is true. */
  health?: boolean;
  /** A list answer: its items the caller may not READ are left out. */
  list?: { resource(item: Record<string, string>, params: PathParams): string };
}

export const ACCESS_RULE = 'tributary:access-rule';

/** Declares the permission a route needs (as the reference controller asks: docs/behaviour.md section 8). */
export const Access = (rule: AccessRule): MethodDecorator & ClassDecorator =>
  SetMetadata(ACCESS_RULE, rule);
