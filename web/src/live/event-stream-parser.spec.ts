import { EventStreamParser } from './event-stream-parser';

describe('EventStreamParser', () => {
  it('reads messages with id, event and data, and skips comments', () => {
    const parser = new EventStreamParser();
    expect(parser.push(': keep-alive\n\nid: 7\nevent: createScope\ndata: {"id":"7"}\n\n')).toEqual([
      { id: '7', event: 'createScope', data: '{"id":"7"}' },
    ]);
    expect(parser.lastId).toEqual('7');
  });

  it('joins a message cut anywhere, CRLF cut between its CR and LF included', () => {
    const text = 'id: 1\r\ndata: a\r\n\r\nid: 2\r\ndata: b\r\n\r\n';
    for (let cut = 0; cut <= text.length; cut += 1) {
      for (let second = cut; second <= text.length; second += 1) {
        const parser = new EventStreamParser();
        const messages = [
          ...parser.push(text.slice(0, cut)),
          ...parser.push(text.slice(cut, second)),
          ...parser.push(text.slice(second)),
        ];
        expect(messages).toEqual([
          { id: '1', event: undefined, data: 'a' },
          { id: '2', event: undefined, data: 'b' },
        ]);
      }
    }
  });

  it('joins data lines with a line feed, takes a field without a colon as empty, and CR alone ends a line', () => {
    const parser = new EventStreamParser();
    expect(parser.push('data: one\rdata:two\ndata\n\n')).toEqual([
      { id: undefined, event: undefined, data: 'one\ntwo\n' },
    ]);
  });

  it('dispatches nothing without data, but keeps its id as the place to resume', () => {
    const parser = new EventStreamParser();
    expect(parser.push('id: 9\n\n')).toEqual([]);
    expect(parser.lastId).toEqual('9');
  });

  it('holds a message back until the blank line that ends it', () => {
    const parser = new EventStreamParser();
    expect(parser.push('id: 3\ndata: x\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ id: '3', event: undefined, data: 'x' }]);
  });
});
