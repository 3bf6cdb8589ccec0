import { ReaderGroupsController } from '../reader-groups/reader-groups.controller';
import { ScopesController } from '../scopes/scopes.controller';
import { StreamsController } from '../streams/streams.controller';
import { ACCESS_RULE, AccessRule } from './access.decorator';
import { parseAcl } from './acl';
import { CHANGE_ACCESS, ChangeOperation, seesHealthDetails } from './needs';
import { Principal, UNAUTHENTICATED_PRINCIPAL } from './principal';
import { HealthController } from '../health/health.controller';
import { ScopePoliciesController } from '../policies/scope-policies.controller';

/** Each operation's route: its controller and handler name. */
const ROUTES: Record<ChangeOperation, [{ prototype: object }, string]> = {
  createScope: [ScopesController, 'createScope'],
  createStream: [StreamsController, 'createStream'],
  updateStream: [StreamsController, 'updateStream'],
  updateStreamState: [StreamsController, 'updateStreamState'],
  deleteStream: [StreamsController, 'deleteStream'],
  createReaderGroup: [ReaderGroupsController, 'createReaderGroup'],
  deleteReaderGroup: [ReaderGroupsController, 'deleteReaderGroup'],
  updateScopePolicy: [ScopePoliciesController, 'updateScopePolicy'],
};

const PARAMS = { scopeName: 's', streamName: 't', readerGroupName: 'g' };
const BODY = { readerGroupName: 'g', streams: ['t', 'other/u'] };

describe('CHANGE_ACCESS', () => {
  it.each(Object.keys(ROUTES) as ChangeOperation[])(
    'asks for %s what its route asks for',
    (operation) => {
      const [controller, name] = ROUTES[operation];
      const handler = Object.getOwnPropertyDescriptor(controller.prototype, name)!.value as object;
      const route = Reflect.getMetadata(ACCESS_RULE, handler) as AccessRule;
      const change = CHANGE_ACCESS[operation];
      expect(change.permission).toBe(route.permission);
      expect(change.resource(PARAMS)).toBe(route.resource(PARAMS));
      const named = (rule: AccessRule) => rule.named?.(BODY, PARAMS);
      expect(named(change)).toEqual(named(route));
    },
  );
});

describe('seesHealthDetails', () => {
  const as = (acl: string) => new Principal('someone', 'basic', parseAcl(acl));

  it('asks what /v1/health/details asks: READ_UPDATE on the root', () => {
    const handler = Object.getOwnPropertyDescriptor(HealthController.prototype, 'getDetails')!
      .value as object;
    const route = Reflect.getMetadata(ACCESS_RULE, handler) as AccessRule;
    expect(route).toMatchObject({ permission: 'READ_UPDATE' });
    expect(route.resource({})).toBe('prn::/');
    expect(seesHealthDetails(as('prn::/,READ_UPDATE'))).toBe(true);
    expect(seesHealthDetails(as('prn::*,READ'))).toBe(false);
    expect(seesHealthDetails(as('prn::/scope:*,READ_UPDATE'))).toBe(false);
    expect(seesHealthDetails(UNAUTHENTICATED_PRINCIPAL)).toBe(false);
  });

  it('lets anyone see them while authentication is off', () => {
    expect(seesHealthDetails(undefined)).toBe(true);
  });
});
