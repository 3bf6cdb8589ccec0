import { session } from '../session/session';
import { ChangeFeed, FeedNews } from './change-feed';

interface Call {
  accept: string | null;
  lastEventId: string | null;
  authorization: string | null;
}

const encoder = new TextEncoder();

function sse(...pieces: string[]): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
  return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
}

/** A stream that sends `pieces`, then breaks as a lost connection does. */
function broken(...pieces: string[]): Response {
  let sent = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent) {
        controller.error(new TypeError('network error'));
        return;
      }
      sent = true;
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
    },
  });
  return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
}

const message = (id: number, scope: string) =>
  `id: ${id}\nevent: createScope\ndata: ${JSON.stringify({ id: String(id), operation: 'createScope', kind: 'scope', scopeName: scope })}\n\n`;

const position = (id: string) =>
  new Response(JSON.stringify({ events: [], position: id }), {
    headers: { 'Content-Type': 'application/json' },
  });

/**
 * Runs a follower against answers given in order (each may look at the request); the last
 * answer stops the follower. Returns the requests, what the follower told, and its waits.
 */
async function follow(answers: ((call: Call) => Response)[]) {
  const calls: Call[] = [];
  const told: FeedNews[] = [];
  const waits: number[] = [];
  let feed: ChangeFeed;
  const done = new Promise<void>((resolve) => {
    feed = new ChangeFeed({
      fetch: (_input, init) => {
        const headers = new Headers(init?.headers);
        const call = {
          accept: headers.get('Accept'),
          lastEventId: headers.get('Last-Event-ID'),
          authorization: headers.get('Authorization'),
        };
        calls.push(call);
        const next = answers.shift();
        if (!next || answers.length === 0) {
          feed.stop();
          resolve();
          return Promise.reject(new DOMException('stopped', 'AbortError'));
        }
        return Promise.resolve(next(call));
      },
      sleep: (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
    });
    feed.subscribe((news) => told.push(news));
    feed.start();
  });
  await done;
  return { calls, told, waits, feed: feed! };
}

const ids = (told: FeedNews[]) =>
  told.map((news) => (news.kind === 'event' ? news.event.id : news.kind));

describe('ChangeFeed', () => {
  afterEach(() => session.forget());

  it('takes the newest position, tells every screen to read again, then follows from it', async () => {
    const { calls, told } = await follow([
      () => position('5'),
      () => sse(message(6, 'a'), message(7, 'b')),
      () => sse(),
    ]);
    expect(calls.slice(0, 3)).toEqual([
      { accept: 'application/json', lastEventId: null, authorization: null },
      { accept: 'text/event-stream', lastEventId: '5', authorization: null },
      { accept: 'text/event-stream', lastEventId: '7', authorization: null },
    ]);
    // The screens are shown once the position is taken: nothing to read again.
    expect(ids(told)).toEqual(['6', '7']);
  });

  it('resumes after the last event told when the connection breaks, seeing none twice', async () => {
    const { calls, told, waits } = await follow([
      () => position('0'),
      () => broken(message(1, 'a'), message(2, 'b'), 'id: 3\ndata: {"id":'),
      () => sse(message(3, 'c')),
      () => sse(),
    ]);
    expect(calls.map((call) => call.lastEventId)).toEqual([null, '0', '2', '3']);
    expect(ids(told)).toEqual(['1', '2', '3']);
    expect(waits[0]).toEqual(1000);
  });

  it('starts over from a fresh position, reading everything again, when its position expired (410)', async () => {
    const { calls, told } = await follow([
      () => position('10'),
      () => new Response(null, { status: 410 }),
      () => position('90'),
      () => sse(message(91, 'z')),
      () => sse(),
    ]);
    expect(calls.map((call) => [call.accept, call.lastEventId])).toEqual([
      ['application/json', null],
      ['text/event-stream', '10'],
      ['application/json', null],
      ['text/event-stream', '90'],
      ['text/event-stream', '91'],
    ]);
    expect(ids(told)).toEqual(['relist', '91']);
  });

  it('waits as long as a 503 says, and longer after each failure until one succeeds, then reads everything again', async () => {
    const { waits, told } = await follow([
      () => new Response(null, { status: 503, headers: { 'Retry-After': '3' } }),
      () => {
        throw new TypeError('network error');
      },
      () => {
        throw new TypeError('network error');
      },
      () => position('1'),
      () => sse(),
    ]);
    expect(waits).toEqual([3000, 2000, 4000]);
    // The screens were shown meanwhile, with what they read before this position.
    expect(ids(told)).toEqual(['relist']);
  });

  /** A follower whose every request gets `status`; what it sent and which states it went through. */
  async function refused(status: number) {
    const sent: (string | null)[] = [];
    const feed = new ChangeFeed({
      fetch: (_input, init) => {
        sent.push(new Headers(init?.headers).get('Authorization'));
        return Promise.resolve(new Response(null, { status }));
      },
      sleep: () => Promise.resolve(),
    });
    const states: string[] = [];
    feed.state.subscribe(() => states.push(feed.state.get()));
    feed.start();
    await new Promise((resolve) => setTimeout(resolve, 10));
    return { sent, states };
  }

  it('sends the signed-in credentials, and stops and asks to sign in again on a 401', async () => {
    session.useCredentials('ops', 'secret');
    session.signedIn({ principal: 'ops', method: 'basic', groups: [] });
    const { sent, states } = await refused(401);
    expect(sent).toEqual([`Basic ${Buffer.from('ops:secret').toString('base64')}`]);
    expect(states).toEqual(['connecting', 'off']);
    expect(session.state.get()).toEqual({
      kind: 'signed-out',
      notice: 'The service asked you to sign in again.',
    });
  });

  it('stops following when the caller may not read the feed (403)', async () => {
    session.useCredentials('reader', 'secret');
    session.signedIn({ principal: 'reader', method: 'basic', groups: [] });
    const { sent, states } = await refused(403);
    expect(sent).toHaveLength(1);
    expect(states).toEqual(['connecting', 'refused']);
    expect(session.state.get()).toEqual({
      kind: 'signed-in',
      user: { principal: 'reader', method: 'basic', groups: [] },
    });
  });
});
