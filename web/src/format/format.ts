/** Times as people read them: the local date and time to the millisecond. */
export function formatTime(ms: number): string {
  const date = new Date(ms);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.` +
    pad(date.getMilliseconds(), 3)
  );
}

/** A key-space bound as short as it stays exact enough to tell neighbours apart. */
export function formatKey(key: number): string {
  return Number.isInteger(key) ? String(key) : String(Number(key.toPrecision(6)));
}

/** `[0.25, 0.5)`: a segment's key range, its end excluded. */
export function formatKeyRange(keyStart: number, keyEnd: number): string {
  return `[${formatKey(keyStart)}, ${formatKey(keyEnd)})`;
}

/** A list of numbers, or a dash for none. */
export function formatNumbers(numbers: readonly number[]): string {
  return numbers.length ? numbers.join(', ') : '—';
}
