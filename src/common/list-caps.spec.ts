import { ApplyDocumentDto } from '../apply/apply-document.dto';
import { MAX_DOCUMENT_RESOURCES } from '../apply/desired-state';
import { CreateReaderGroupDto } from '../reader-groups/dto/create-reader-group.dto';
import { ScaleStreamDto } from '../scaling/dto/scale-stream.dto';
import { MAX_NEW_RANGES, MAX_SEALED_SEGMENTS } from '../scaling/manual-scale';
import { UpdateStreamDto } from '../streams/dto/update-stream.dto';
import { overlongLists } from './list-caps';

/** A list that fails the test if any of its elements is read: only its length may be. */
function unreadable(length: number): unknown[] {
  return new Proxy(new Array<unknown>(length), {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) {
        throw new Error(`element ${key} of an over-long list was read`);
      }
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

describe('overlongLists', () => {
  it('accepts lists at their maximum', () => {
    expect(
      overlongLists(ScaleStreamDto, {
        sealedSegments: Array(MAX_SEALED_SEGMENTS).fill(0),
        newRanges: Array(MAX_NEW_RANGES).fill({}),
      }),
    ).toEqual([]);
  });

  it('refuses a list one longer than its maximum by its length alone', () => {
    expect(
      overlongLists(ScaleStreamDto, {
        sealedSegments: unreadable(480_000),
        newRanges: unreadable(MAX_NEW_RANGES + 1),
      }),
    ).toEqual([
      { field: 'sealedSegments', message: `must name at most ${MAX_SEALED_SEGMENTS} segments` },
      { field: 'newRanges', message: `must hold at most ${MAX_NEW_RANGES} ranges` },
    ]);
    expect(overlongLists(CreateReaderGroupDto, { streams: unreadable(1001) })).toEqual([
      { field: 'streams', message: 'must list at most 1000 streams' },
    ]);
  });

  it('knows the maxima a DTO inherits from the one it is made from', () => {
    expect(overlongLists(UpdateStreamDto, { streamTags: unreadable(110_000) })).toEqual([
      { field: 'streamTags', message: 'must list at most 1000 tags' },
    ]);
  });

  it('checks the lists inside the elements of a list of DTOs, naming their paths', () => {
    const tags = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`);
    expect(
      overlongLists(ApplyDocumentDto, {
        scopes: [
          { scopeName: 'a', streams: [{ streamTags: tags(3) }, { streamTags: unreadable(1001) }] },
          null,
          'b',
          { scopeName: 'c', readerGroups: [{ streams: unreadable(2000) }], streams: 'none' },
        ],
      }),
    ).toEqual([
      { field: 'scopes[0].streams[1].streamTags', message: 'must list at most 1000 tags' },
      { field: 'scopes[3].readerGroups[0].streams', message: 'must list at most 1000 streams' },
    ]);
    expect(
      overlongLists(ApplyDocumentDto, { scopes: unreadable(MAX_DOCUMENT_RESOURCES + 1) }),
    ).toEqual([{ field: 'scopes', message: 'must list at most 10000 scopes' }]);
  });

  it('leaves what is not an object or a list to the other rules', () => {
    expect(overlongLists(ApplyDocumentDto, null)).toEqual([]);
    expect(overlongLists(ApplyDocumentDto, [1, 2])).toEqual([]);
    expect(overlongLists(ApplyDocumentDto, { scopes: 'many' })).toEqual([]);
  });
});
