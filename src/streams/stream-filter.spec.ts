import { violatedFields } from '../../test/support/violated-fields';
import { toStreamFilter } from './stream-filter';

describe('toStreamFilter', () => {
  it('lists user streams without a filter', () => {
    expect(toStreamFilter({})).toEqual({ kind: 'user' });
  });

  it('filters by tag', () => {
    expect(toStreamFilter({ filter_type: 'tag', filter_value: 'blue' })).toEqual({
      kind: 'tag',
      tag: 'blue',
    });
  });

  it('honours the value of showInternalStreams', () => {
    expect(toStreamFilter({ filter_type: 'showInternalStreams', filter_value: 'true' })).toEqual({
      kind: 'internal',
    });
    expect(toStreamFilter({ filter_type: 'showInternalStreams', filter_value: 'false' })).toEqual({
      kind: 'user',
    });
  });

  it('reads showInternalStreams without a value, or with an empty one, as true', () => {
    expect(toStreamFilter({ filter_type: 'showInternalStreams' })).toEqual({ kind: 'internal' });
    expect(toStreamFilter({ filter_type: 'showInternalStreams', filter_value: '' })).toEqual({
      kind: 'internal',
    });
  });

  it('reads the legacy showInternalStreams parameter', () => {
    expect(toStreamFilter({ showInternalStreams: 'true' })).toEqual({ kind: 'internal' });
    expect(toStreamFilter({ showInternalStreams: 'false' })).toEqual({ kind: 'user' });
  });

  it.each([
    [{ filter_type: 'tag' as const }, 'filter_value'],
    [{ filter_type: 'tag' as const, filter_value: '' }, 'filter_value'],
    [{ filter_type: 'tag' as const, filter_value: 'a\u0000b' }, 'filter_value'],
    [{ filter_type: 'tag' as const, filter_value: 'x'.repeat(257) }, 'filter_value'],
    [{ filter_type: 'showInternalStreams' as const, filter_value: 'yes' }, 'filter_value'],
    [{ filter_value: 'x' }, 'filter_type'],
    [{ showInternalStreams: 'maybe' }, 'showInternalStreams'],
  ])('rejects %j naming %s', (query, field) => {
    expect(violatedFields(() => toStreamFilter(query))).toEqual([field]);
  });
});
