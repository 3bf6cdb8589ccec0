import { ReaderGroupsController } from '../reader-groups/reader-groups.controller';
import { ScopesController } from '../scopes/scopes.controller';
import { StreamsController } from '../streams/streams.controller';
import { ACCESS_RULE, AccessRule } from './access.decorator';
import { CHANGE_ACCESS, ChangeOperation } from './needs';

/** Each operation's route: its controller and handler name. */
const ROUTES: Record<ChangeOperation, [{ prototype: object }, string]> = {
  createScope: [ScopesController, 'createScope'],
  createStream: [StreamsController, 'createStream'],
  updateStream: [StreamsController, 'updateStream'],
  updateStreamState: [StreamsController, 'updateStreamState'],
  deleteStream: [StreamsController, 'deleteStream'],
  createReaderGroup: [ReaderGroupsController, 'createReaderGroup'],
  deleteReaderGroup: [ReaderGroupsController, 'deleteReaderGroup'],
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
