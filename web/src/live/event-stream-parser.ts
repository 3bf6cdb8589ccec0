/** One message of a `text/event-stream` (the fields the change feed sends). */
export interface EventStreamMessage {
  id?: string;
  event?: string;
  data: string;
}

/**
 * Reads Server-Sent Events as the HTML standard defines the format: lines ending in CR, LF or
 * CRLF, `field: value` (one space after the colon dropped), comments starting with a colon, a
 * blank line ending a message. Text arrives in pieces cut anywhere, so a line is kept until its
 * end has come. A message without data is not dispatched; its id still counts (see `lastId`).
 */
export class EventStreamParser {
  private pending = '';
  private data: string[] = [];
  private id: string | undefined;
  private event: string | undefined;
  /** The last id the stream gave, dispatched or not: where to resume from. */
  lastId: string | undefined;

  push(text: string): EventStreamMessage[] {
    let received = this.pending + text;
    // A CR at the very end may be the first half of a CRLF: it waits for the next piece.
    const heldCr = received.endsWith('\r');
    if (heldCr) received = received.slice(0, -1);
    const messages: EventStreamMessage[] = [];
    const lines = received.split(/\r\n|\r|\n/);
    // The last piece has not ended yet.
    this.pending = (lines.pop() ?? '') + (heldCr ? '\r' : '');
    for (const line of lines) {
      const message = this.line(line);
      if (message) messages.push(message);
    }
    return messages;
  }

  private line(line: string): EventStreamMessage | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    return undefined;
  }

  private dispatch(): EventStreamMessage | undefined {
    const { data, id, event } = this;
    this.data = [];
    this.event = undefined;
    this.id = undefined;
    if (id !== undefined) this.lastId = id;
    if (data.length === 0) return undefined;
    return { id, event, data: data.join('\n') };
  }
}
