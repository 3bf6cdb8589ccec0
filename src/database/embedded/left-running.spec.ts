import { liveOwner, parseOwnerRecord } from './left-running';

const SERVER = 4242;
const alive =
  (...running: number[]) =>
  (pid: number): boolean =>
    running.includes(pid);

describe('whose is a server that holds the cluster', () => {
  it('reads the record a service writes once its server is ready', () => {
    expect(parseOwnerRecord('1200 4242\n')).toEqual({ service: 1200, server: 4242 });
    expect(parseOwnerRecord('')).toBeUndefined();
    expect(parseOwnerRecord('1200\n')).toBeUndefined();
    expect(parseOwnerRecord('x y')).toBeUndefined();
  });

  it('names the service that recorded this server while it runs and is its parent', () => {
    const record = { service: 1200, server: SERVER };
    expect(liveOwner(SERVER, record, 1200, alive(1200))).toBe(1200);
    // No parent known (no /proc, no ps): the record alone decides.
    expect(liveOwner(SERVER, record, undefined, alive(1200))).toBe(1200);
  });

  it('finds none when the recording service is gone, whoever now has its id', () => {
    const record = { service: 1200, server: SERVER };
    expect(liveOwner(SERVER, record, 1, alive())).toBeUndefined();
    // Its id taken by another process; the server was adopted by init or a reaper.
    expect(liveOwner(SERVER, record, 1, alive(1200))).toBeUndefined();
    expect(liveOwner(SERVER, record, 777, alive(1200, 777))).toBeUndefined();
  });

  it('takes the parent for the service when no record names this server', () => {
    // A record of an earlier server: the one now running was started by its parent.
    const stale = { service: 1100, server: 4000 };
    expect(liveOwner(SERVER, stale, 1300, alive(1300))).toBe(1300);
    expect(liveOwner(SERVER, undefined, 1300, alive(1300))).toBe(1300);
    expect(liveOwner(SERVER, undefined, 1, alive(1))).toBeUndefined();
    expect(liveOwner(SERVER, undefined, undefined, alive())).toBeUndefined();
  });
});
