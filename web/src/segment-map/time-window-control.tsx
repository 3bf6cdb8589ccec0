import { useEffect, useState } from 'preact/hooks';
import { TextField } from '../components/field';
import { navigate, useLocation, useQuery } from '../routing/router';
import { withQuery } from '../routing/routes';
import { fromLocalInput, pan, TimeWindow, toLocalInput, zoom } from './time-window';

/**
 * Chooses the window of time the map shows (and whose scaling events it loads): typed, zoomed
 * around its middle, moved earlier or later, or the whole history. The window is in the address.
 */
export function TimeWindowControl({ window }: { window: TimeWindow }) {
  const { pathname } = useLocation();
  const query = useQuery();
  const [from, setFrom] = useState(toLocalInput(window.from));
  const [to, setTo] = useState(toLocalInput(window.to));
  const [problem, setProblem] = useState<string>();
  useEffect(() => {
    setFrom(toLocalInput(window.from));
    setTo(toLocalInput(window.to));
  }, [window.from, window.to]);

  const show = (next: TimeWindow | undefined) =>
    navigate(
      withQuery(pathname, {
        ...Object.fromEntries(query),
        from: next ? String(next.from) : undefined,
        to: next ? String(next.to) : undefined,
      }),
    );
  const submit = (event: Event) => {
    event.preventDefault();
    const start = fromLocalInput(from);
    const end = fromLocalInput(to);
    if (start === undefined || end === undefined || end <= start) {
      setProblem('Choose a start before the end.');
      return;
    }
    setProblem(undefined);
    // A datetime-local holds whole seconds: the end's second is included.
    show({ from: start, to: end + 999 });
  };
  return (
    <form class="time-window" onSubmit={submit} aria-label="Time window">
      <TextField label="From" type="datetime-local" step={1} value={from} onValue={setFrom} />
      <TextField
        label="To"
        type="datetime-local"
        step={1}
        value={to}
        onValue={setTo}
        error={problem}
      />
      <button type="submit">Show window</button>
      <button type="button" onClick={() => show(zoom(window, 0.5))}>
        Zoom in
      </button>
      <button type="button" onClick={() => show(zoom(window, 2))}>
        Zoom out
      </button>
      <button type="button" onClick={() => show(pan(window, -0.5))}>
        Earlier
      </button>
      <button type="button" onClick={() => show(pan(window, 0.5))}>
        Later
      </button>
      <button type="button" onClick={() => show(undefined)}>
        Whole history
      </button>
    </form>
  );
}
