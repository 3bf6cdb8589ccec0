import { ClientRequest, IncomingMessage, request } from 'node:http';

/** One Server-Sent Event as received. */
export interface ReceivedEvent {
  id?: string;
  event?: string;
  data: string;
}

/**
 * A Server-Sent Events client over node:http (no reconnection: a test sees exactly what one
 * stream sent): the events and comments received, how the stream ended, and a way to wait for
 * what a test expects.
 */
export class SseClient {
  readonly events: ReceivedEvent[] = [];
  readonly comments: string[] = [];
  status = 0;
  headers: IncomingMessage['headers'] = {};
  /** `end`: the server ended the answer cleanly; `error`: the connection broke. */
  ended?: 'end' | 'error';
  body = '';
  private req?: ClientRequest;
  private res?: IncomingMessage;
  private buffer = '';
  private readonly waiters = new Set<() => void>();

  private constructor() {}

  /**
   * Opens a stream; resolves once the answer's headers arrived. `localAddress` is the address
   * it calls from (on Linux any of 127.0.0.0/8: another client, as the service sees it).
   */
  static open(
    url: string,
    headers: Record<string, string> = {},
    { localAddress }: { localAddress?: string } = {},
  ): Promise<SseClient> {
    const client = new SseClient();
    const options = { headers: { Accept: 'text/event-stream', ...headers }, localAddress };
    return new Promise((resolve, reject) => {
      client.req = request(url, options, (res) => {
        client.res = res;
        client.status = res.statusCode ?? 0;
        client.headers = res.headers;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => client.take(chunk));
        res.on('end', () => client.finish('end'));
        res.on('error', () => client.finish('error'));
        res.on('aborted', () => client.finish('error'));
        resolve(client);
      });
      client.req.on('error', (error) => {
        if (client.res) client.finish('error');
        else reject(error);
      });
      client.req.end();
    });
  }

  /** The events' data, parsed. */
  get data(): Array<Record<string, unknown>> {
    return this.events.map((event) => JSON.parse(event.data) as Record<string, unknown>);
  }

  /** Stops reading (the socket's buffers fill, as with a client that hangs). */
  pause(): void {
    this.res?.pause();
  }

  close(): void {
    this.req?.destroy();
  }

  /** Waits until `done` holds (checked on each arrival), failing after `timeoutMs`. */
  async until(done: (client: SseClient) => boolean, timeoutMs = 20_000): Promise<void> {
    if (done(this)) return;
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!done(this)) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(
          new Error(
            `stream: ${this.events.length} events, ${this.comments.length} comments, ` +
              `ended ${this.ended ?? 'no'}; condition not met`,
          ),
        );
      }, timeoutMs);
      this.waiters.add(check);
    });
  }

  private take(chunk: string): void {
    this.body += chunk;
    this.buffer += chunk;
    let end;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const event: ReceivedEvent = { data: '' };
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) this.comments.push(line);
        else if (line.startsWith('id: ')) event.id = line.slice(4);
        else if (line.startsWith('event: ')) event.event = line.slice(7);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
      }
      if (data.length > 0) {
        event.data = data.join('\n');
        this.events.push(event);
      }
    }
    this.notify();
  }

  private finish(how: 'end' | 'error'): void {
    this.ended ??= how;
    this.notify();
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}
