import { useEffect, useState } from 'preact/hooks';
import type { Store } from './store';

/** The store's value, rendering again whenever it changes. */
export function useStore<T>(store: Store<T>): T {
  const [value, setValue] = useState(() => store.get());
  useEffect(() => {
    setValue(store.get());
    return store.subscribe(() => setValue(store.get()));
  }, [store]);
  return value;
}
