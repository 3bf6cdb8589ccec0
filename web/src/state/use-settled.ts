import { useEffect, useState } from 'preact/hooks';

/**
 * `value` once it has stayed the same for `ms` (the first value at once): what follows a
 * pointer or a held key is read for where it stops, not for everything it passes.
 */
export function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    if (Object.is(value, settled)) return;
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, settled, ms]);
  return settled;
}
