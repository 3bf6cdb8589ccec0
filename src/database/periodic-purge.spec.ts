import { Logger } from '@nestjs/common';
import { PeriodicPurge } from './periodic-purge';

/** A purge over `rows` expired rows, noting each batch asked for. */
function purgeOf(rows: number, batchesPerPass = 3) {
  const asked: number[] = [];
  let left = rows;
  const purge = new PeriodicPurge({
    what: 'test rows',
    intervalMs: 60_000,
    batchSize: 10,
    batchesPerPass,
    deleteBatch: (size) => {
      asked.push(size);
      const deleted = Math.min(size, left);
      left -= deleted;
      return Promise.resolve(deleted);
    },
    logger: new Logger('test'),
  });
  return { purge, asked, left: () => left };
}

describe('PeriodicPurge', () => {
  it('deletes in batches until a batch comes back short', async () => {
    const { purge, asked, left } = purgeOf(25);
    expect(await purge.purge()).toEqual(25);
    expect(asked).toEqual([10, 10, 10]);
    expect(left()).toEqual(0);
  });

  it('stops a pass at its budget of batches, leaving the rest to the next pass', async () => {
    const { purge, asked, left } = purgeOf(100, 2);
    expect(await purge.purge()).toEqual(20);
    expect(asked).toEqual([10, 10]);
    expect(left()).toEqual(80);
    expect(await purge.purge(30)).toEqual(60);
    expect(left()).toEqual(20);
  });

  it('asks nothing more after an empty first batch', async () => {
    const { purge, asked } = purgeOf(0);
    expect(await purge.purge()).toEqual(0);
    expect(asked).toEqual([10]);
  });
});
