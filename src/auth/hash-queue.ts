import { availableParallelism } from 'node:os';

/**
 * How many password hashes run at once: one per core but one, which the event loop keeps for
 * every other request; at least one, and at most three, so that one of the four threads of
 * libuv's pool (where scrypt runs) stays free for the file system and DNS.
 */
export const HASHES_AT_ONCE = Math.max(1, Math.min(availableParallelism() - 1, 3));

/** One client address's hashes: those waiting their turn, and those running. */
interface ClientHashes {
  waiting: (() => void)[];
  running: number;
  /** When it last had a place, in places given; -1 when never. */
  servedAt: number;
}

/**
 * Runs password hashes a few at a time, fair across client addresses: each address waits in a
 * queue of its own, and a free place goes to the address with the fewest hashes running, and
 * among those to the one served longest ago. One address's flood thus delays another's login
 * by one hash at most (the first of those running to end). How many an address may queue is
 * bounded before it gets here, by the failed-login limit's reservations.
 *
 * In memory, by design: it shares out this process's CPU.
 */
export class HashQueue {
  private readonly clients = new Map<string, ClientHashes>();
  private running = 0;
  private placesGiven = 0;

  constructor(private readonly atOnce: number = HASHES_AT_ONCE) {}

  /** Runs `hash` for `client` when its turn comes. */
  run<T>(client: string, hash: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const hashes = this.clients.get(client) ?? { waiting: [], running: 0, servedAt: -1 };
      this.clients.set(client, hashes);
      hashes.waiting.push(() => {
        Promise.resolve()
          .then(hash)
          .then(resolve, reject)
          .finally(() => {
            this.running--;
            hashes.running--;
            if (hashes.running === 0 && hashes.waiting.length === 0) this.clients.delete(client);
            this.next();
          });
      });
      this.next();
    });
  }

  /** Gives a free place, if there is one, to the address whose turn it is. */
  private next(): void {
    if (this.running >= this.atOnce) return;
    let turn: ClientHashes | undefined;
    for (const hashes of this.clients.values()) {
      if (hashes.waiting.length > 0 && (turn === undefined || comesBefore(hashes, turn))) {
        turn = hashes;
      }
    }
    if (!turn) return;
    this.running++;
    turn.running++;
    turn.servedAt = this.placesGiven++;
    turn.waiting.shift()!();
  }
}

/** Fewer hashes running first, then the one served longest ago. */
const comesBefore = (a: ClientHashes, b: ClientHashes): boolean =>
  a.running !== b.running ? a.running < b.running : a.servedAt < b.servedAt;
