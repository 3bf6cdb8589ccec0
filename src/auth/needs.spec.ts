import { ReaderGroupsController } from '../reader-groups/reader-groups.controller';
import { ScopesController } from '../scopes/scopes.controller';
import { StreamsController } from '../streams/streams.controller';
import { ACCESS_RULE, AccessRule } from './access.decorator';
import { CHANGE_ACCESS, ChangeOperation } from './needs';

const HANDLERS: Record<ChangeOperation, object> = {
  createScope: ScopesController.prototype.createScope,
  createStream: StreamsController.prototype.createStream,
  updateStream: StreamsController.prototype.updateStream,
  updateStreamState: StreamsController.prototype.updateStreamState,
  deleteStream: StreamsController.prototype.deleteStream,
  createReaderGroup: ReaderGroupsController.prototype.createReaderGroup,
  deleteReaderGroup: ReaderGroupsController.prototype.deleteReaderGroup,
};

const PARAMS = { scopeName: 's', streamName: 't', readerGroupName: 'g' };

describe('CHANGE_ACCESS', () => {
  it.each(Object.keys(HANDLERS) as ChangeOperation[])(
    'asks for %s what its route asks for',
    (operation) => {
      const route = Reflect.getMetadata(ACCESS_RULE, HANDLERS[operation]) as AccessRule;
      const change = CHANGE_ACCESS[operation];
      expect(change.permission).toBe(route.permission);
      expect(change.resource(PARAMS)).toBe(route.resource(PARAMS));
    },
  );
});
