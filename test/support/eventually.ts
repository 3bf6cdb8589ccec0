/**
 * Reads a value until it is `expected` or the attempts run out, and returns the last value
 * read, so the caller's `expect` reports what was seen (recovery after an outage, a status
 * that changes within a window).
 */
export async function eventually<T>(
  read: () => Promise<T>,
  expected: T,
  { attempts = 50, intervalMs = 100 } = {},
): Promise<T> {
  let seen = await read();
  for (let attempt = 1; attempt < attempts && seen !== expected; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    seen = await read();
  }
  return seen;
}
