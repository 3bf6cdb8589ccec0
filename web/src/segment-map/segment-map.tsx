import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { Direction, DrawnMap, neighbour, segmentAt, segmentRects, View } from './geometry';
import { drawPicture, MARGIN } from './draw';
import { DetailSource, SegmentDetails } from './segment-details';
import type { SegmentHistory, SegmentSpan } from './segment-history';
import type { TimeWindow } from './time-window';

/** The map's height in CSS pixels (the width is the page's). */
const HEIGHT = 320;

declare global {
  interface HTMLCanvasElement {
    /** The map's geometry as last drawn, for tools and tests that check it against the data. */
    segmentMap?: DrawnMap;
  }
}

const KEYS: Record<string, Direction> = {
  ArrowRight: 'later',
  ArrowLeft: 'earlier',
  ArrowUp: 'up',
  ArrowDown: 'down',
};

/** The canvas's width follows its container's. */
function useWidth(element: { current: HTMLElement | null }): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const node = element.current;
    if (!node) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry.contentRect.width)));
    observer.observe(node);
    return () => observer.disconnect();
  }, [element]);
  return width;
}

/**
 * The key space [0, 1) upwards against time to the right: a rectangle per segment from its start
 * to its sealing (or now), a line per epoch. Pointer or keyboard focus on a segment shows its
 * details; the arrow keys move to its successor (→), predecessor (←), or the segment above (↑)
 * or below (↓); Home goes to the first segment, End to the last. A click, or Space or Enter on
 * the segment in focus, selects it to scale (or unselects it): `onSelect` decides.
 */
export function SegmentMap({
  history,
  window,
  now,
  label,
  active,
  selected,
  onSelect,
  details,
}: {
  history: SegmentHistory;
  window: TimeWindow;
  now: number;
  label: string;
  /** The segments active now (drawn in their own colour). */
  active: ReadonlySet<number>;
  /** The segments selected to scale (drawn hatched). */
  selected: ReadonlySet<number>;
  onSelect: (number: number) => void;
  /** Where the details of the segment in focus are read. */
  details: DetailSource;
}) {
  const box = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const width = useWidth(box);
  const [focused, setFocused] = useState<number>();
  const [hovered, setHovered] = useState<number>();
  const [keyboard, setKeyboard] = useState(false);

  const view = useMemo<View>(
    () => ({
      from: window.from,
      to: window.to,
      width: Math.max(1, width - MARGIN.left - MARGIN.right),
      height: HEIGHT - MARGIN.top - MARGIN.bottom,
    }),
    [window.from, window.to, width],
  );
  const byNumber = useMemo(
    () => new Map(history.segments.map((span) => [span.number, span])),
    [history],
  );
  const rects = useMemo(() => segmentRects(history.segments, view, now), [history, view, now]);
  const focusedSpan = focused === undefined ? undefined : byNumber.get(focused);

  // Drawn in the same task as the page renders what changed (a selection, the focus, new
  // segments): what the canvas shows, and `segmentMap` with it, is never older than the text
  // around it, however late the browser gets round to its next frame.
  useLayoutEffect(() => {
    const node = canvas.current;
    if (!node || width === 0) return;
    const started = performance.now();
    const ratio = globalThis.devicePixelRatio || 1;
    node.width = Math.round(width * ratio);
    node.height = Math.round(HEIGHT * ratio);
    const ctx = node.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, width, HEIGHT);
    drawPicture(ctx, {
      view,
      rects,
      epochTimes: history.times,
      active,
      focused,
      related: new Set([...(focusedSpan?.predecessors ?? []), ...(focusedSpan?.successors ?? [])]),
      keyboard,
      selected,
    });
    node.segmentMap = {
      plot: { left: MARGIN.left, top: MARGIN.top },
      view,
      rects,
      selected: [...selected].sort((a, b) => a - b),
    };
    performance.measure('segment-map:draw', { start: started });
  }, [view, rects, history, active, focused, focusedSpan, keyboard, width, selected]);

  const pointAt = (event: MouseEvent) => {
    const bounds = canvas.current!.getBoundingClientRect();
    return segmentAt(
      rects,
      event.clientX - bounds.left - MARGIN.left,
      event.clientY - bounds.top - MARGIN.top,
    );
  };

  const first = (): SegmentSpan | undefined =>
    history.segments
      .filter((s) => rects.some((r) => r.number === s.number))
      .sort((a, b) => a.start - b.start || a.keyStart - b.keyStart)[0];

  const onKeyDown = (event: KeyboardEvent) => {
    setKeyboard(true);
    let next: number | undefined;
    if (KEYS[event.key] && focusedSpan) {
      next = neighbour(history.segments, focusedSpan, KEYS[event.key], window.from);
    } else if (KEYS[event.key] || event.key === 'Home') {
      next = first()?.number;
    } else if (event.key === 'End') {
      next = rects[rects.length - 1]?.number;
    } else if (event.key === 'Escape') {
      setFocused(undefined);
      return;
    } else if ((event.key === ' ' || event.key === 'Enter') && focused !== undefined) {
      event.preventDefault();
      onSelect(focused);
      return;
    } else {
      return;
    }
    event.preventDefault();
    if (next !== undefined) setFocused(next);
  };

  const shown = byNumber.get(hovered ?? focused ?? Number.NaN);
  return (
    <div class="segment-map">
      <div ref={box} class="canvas-box">
        <canvas
          ref={canvas}
          style={{ width: `${width}px`, height: `${HEIGHT}px` }}
          tabIndex={0}
          role="application"
          aria-roledescription="segment map"
          aria-label={label}
          aria-describedby="segment-details"
          onKeyDown={onKeyDown}
          onFocus={() => {
            setKeyboard(true);
            if (focused === undefined) setFocused(first()?.number);
          }}
          onBlur={() => setKeyboard(false)}
          onPointerMove={(event) => setHovered(pointAt(event))}
          onPointerLeave={() => setHovered(undefined)}
          onClick={(event) => {
            const number = pointAt(event);
            if (number === undefined) return;
            setFocused(number);
            onSelect(number);
          }}
        />
      </div>
      <SegmentDetails
        span={shown}
        source={details}
        onGo={(number) => {
          setFocused(number);
          canvas.current?.focus();
        }}
      />
    </div>
  );
}
