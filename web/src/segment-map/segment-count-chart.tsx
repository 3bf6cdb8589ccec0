import { useEffect, useRef, useState } from 'preact/hooks';
import type { TimeWindow } from './time-window';

/**
 * The number of active segments over the window, drawn with uPlot beneath the map (times in
 * seconds, as uPlot counts them), the last count held to the window's end.
 */
export function SegmentCountChart({
  times,
  counts,
  window,
  width,
}: {
  times: readonly number[];
  counts: readonly number[];
  window: TimeWindow;
  width: number;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const container = box.current;
    if (!container || width === 0) return;
    // The record active at the window's start began before it: it is drawn from the edge.
    const xs = times.map((time) => Math.max(time, window.from) / 1000);
    const ys = [...counts];
    if (xs.length) {
      xs.push(window.to / 1000);
      ys.push(ys[ys.length - 1]);
    }
    let plot: { destroy(): void } | undefined;
    let cancelled = false;
    import('./count-plot').then(
      ({ countPlot }) => {
        if (cancelled) return;
        plot = countPlot(container, width, [window.from / 1000, window.to / 1000], [xs, ys]);
      },
      () => setFailed(true),
    );
    return () => {
      cancelled = true;
      plot?.destroy();
    };
  }, [times, counts, window.from, window.to, width]);

  const low = counts.length ? Math.min(...counts) : 0;
  const high = counts.length ? Math.max(...counts) : 0;
  return (
    <figure class="segment-count">
      <div
        ref={box}
        role="img"
        aria-label={`Active segments over time: between ${low} and ${high}`}
      />
      <figcaption>
        {failed ? 'The chart of active segments could not be loaded.' : 'Active segments over time'}
      </figcaption>
    </figure>
  );
}
