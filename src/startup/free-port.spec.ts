import { createServer } from 'node:net';
import { freePort } from './free-port';

describe('freePort', () => {
  it('draws again while the system hands out a reserved port', async () => {
    const draws = [9091, 9091, 5432, 41000];
    const draw = jest.fn(() => Promise.resolve(draws.shift() ?? 0));
    await expect(freePort([9091, 5432], draw)).resolves.toBe(41000);
    expect(draw).toHaveBeenCalledTimes(4);
  });

  it('gives up, naming the reserved ports, when the system offers nothing else', async () => {
    await expect(freePort([9091], () => Promise.resolve(9091))).rejects.toThrow(
      'no free port other than 9091 after 50 draws',
    );
  });

  it('returns a port that can be bound on the loopback interface', async () => {
    const port = await freePort([]);
    const server = createServer();
    await new Promise<void>((done, fail) => {
      server.once('error', fail);
      server.listen(port, '127.0.0.1', done);
    });
    await new Promise((done) => server.close(done));
    expect(port).toBeGreaterThan(0);
  });
});
