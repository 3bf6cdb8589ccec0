import { wantsEventStream } from './event-feed.interceptor';

describe('wantsEventStream', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['application/json', false],
    ['*/*', false],
    ['text/event-stream', true],
    ['application/json;q=0.9, Text/Event-Stream', true],
    ['text/event-stream;q=0.5', true],
    ['text/event-stream ; charset="a,b" ; q=1', true],
    ['text/event-stream;q=0', false],
    ['text/event-stream; Q=0.000', false],
    ['text/event-stream;q=0, text/event-stream;q=1', true],
    [`text/event-stream;${' '.repeat(16_000)}q=0`, false],
  ])('Accept %j asks for a stream: %p', (accept, expected) => {
    expect(wantsEventStream(accept)).toBe(expected);
  });
});
