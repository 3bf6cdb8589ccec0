import { AddressInfo, connect } from 'node:net';
import { startTestApp, TestApp } from './support/test-app';

/** Opens a raw connection, writes `data`, and resolves with what the server sent until it closed. */
function sendAndWaitForClose(port: number, data: string, giveUpMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(data));
    const received: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server still held the connection after ${giveUpMs} ms`));
    }, giveUpMs);
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(received).toString());
    });
  });
}

/** A slow or never-finishing client cannot hold a connection forever. */
describe('Slow and stalled clients (e2e)', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await startTestApp({
      HTTP_HEADERS_TIMEOUT_MS: '500',
      HTTP_REQUEST_TIMEOUT_MS: '1000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '500',
    });
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t.close();
  });

  it('cuts off a client whose headers never end, with 408', async () => {
    const answer = await sendAndWaitForClose(
      port,
      'GET /v1/scopes HTTP/1.1\r\nHost: x\r\n',
      10_000,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('cuts off a client whose body never ends', async () => {
    const head =
      'POST /v1/scopes HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
      'Content-Length: 100\r\n\r\n{"scopeName"';
    const answer = await sendAndWaitForClose(port, head, 10_000);
    expect(answer).toMatch(/^HTTP\/1\.1 (408|400)/);
    expect((await t.sql(`SELECT count(*)::int AS n FROM scopes`))[0]).toEqual({ n: 0 });
  });

  it('closes an idle keep-alive connection', async () => {
    const answer = await sendAndWaitForClose(
      port,
      'GET /ping HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n',
      // Under Node's default of 5 s.
      4000,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
  });

  it('keeps serving everyone else meanwhile', async () => {
    const stalled = sendAndWaitForClose(port, 'GET /v1/scopes HTTP/1.1\r\n', 10_000);
    await t.http.get('/v1/scopes').expect(200, { scopes: [] });
    await stalled;
  });
});
