import { eventJson, newEvent, resourceNames, sseFrame } from './change-event';

describe('resourceNames', () => {
  it('reads a scope, a stream and a reader group', () => {
    expect(resourceNames('prn::/scope:s')).toEqual({ kind: 'scope', scopeName: 's' });
    expect(resourceNames('prn::/scope:s/stream:t')).toEqual({
      kind: 'stream',
      scopeName: 's',
      streamName: 't',
    });
    expect(resourceNames('prn::/scope:s/reader-group:g')).toEqual({
      kind: 'readerGroup',
      scopeName: 's',
      readerGroupName: 'g',
    });
  });
  it('knows nothing else', () => {
    expect(resourceNames('prn::/')).toBeUndefined();
    expect(resourceNames('prn::/scope:s/other:x')).toBeUndefined();
  });
});

describe('newEvent', () => {
  it('makes the event of a change, with its object and entity tag', () => {
    const event = newEvent({
      operation: 'createStream',
      resource: 'prn::/scope:s/stream:t',
      principal: 'alice',
      requestId: 'r-1',
      time: 1000,
      shown: { body: { scopeName: 's', streamName: 't' }, etag: '"1.1"' },
    })!;
    expect(event.scopeName).toBe('s');
    expect(JSON.parse(eventJson({ ...event, id: 42n }))).toEqual({
      id: '42',
      time: 1000,
      operation: 'createStream',
      kind: 'stream',
      resource: 'prn::/scope:s/stream:t',
      scopeName: 's',
      streamName: 't',
      principal: 'alice',
      requestId: 'r-1',
      etag: '"1.1"',
      object: { scopeName: 's', streamName: 't' },
    });
  });

  it('leaves out what a delete has not, and ignores what is no resource of the feed', () => {
    const event = newEvent({
      operation: 'deleteScope',
      resource: 'prn::/scope:s',
      principal: 'anonymous',
      requestId: null,
    })!;
    expect(Object.keys(JSON.parse(event.body))).toEqual([
      'time',
      'operation',
      'kind',
      'resource',
      'scopeName',
      'principal',
    ]);
    expect(newEvent({ operation: 'applyDocument', resource: 'prn::/', principal: 'a' })).toBe(
      undefined,
    );
  });
});

describe('sseFrame', () => {
  it('is one event of Server-Sent Events: id, event, data and a blank line', () => {
    const event = newEvent({
      operation: 'deleteScope',
      resource: 'prn::/scope:s',
      principal: 'a',
    })!;
    const frame = sseFrame({ ...event, id: 7n });
    const lines = frame.split('\n');
    expect(lines[0]).toBe('id: 7');
    expect(lines[1]).toBe('event: deleteScope');
    expect(JSON.parse(lines[2].slice('data: '.length))).toMatchObject({ id: '7' });
    expect(frame.endsWith('\n\n')).toBe(true);
    expect(lines).toHaveLength(5);
  });
});
