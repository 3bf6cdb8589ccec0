import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { MARGIN } from './draw';

/** The count chart's height in CSS pixels. */
export const PLOT_HEIGHT = 140;

/**
 * A uPlot step chart of the active segments over a window, with the map's left and right margins
 * so that its times line up with the map's. Loaded with the stream screen only (uPlot is most
 * of the console's script).
 */
export function countPlot(
  container: HTMLElement,
  width: number,
  range: [number, number],
  data: [number[], number[]],
): { destroy(): void } {
  const max = Math.max(1, ...data[1]);
  return new uPlot(
    {
      width,
      height: PLOT_HEIGHT,
      padding: [8, MARGIN.right, 0, 0],
      legend: { show: false },
      cursor: { show: false },
      scales: {
        x: { time: true, range },
        y: { range: [0, max + Math.ceil(max / 10)] },
      },
      axes: [{ stroke: '#5b6b7b' }, { stroke: '#5b6b7b', size: MARGIN.left }],
      series: [
        {},
        {
          label: 'Active segments',
          stroke: '#1d4e89',
          width: 2,
          fill: 'rgba(29, 78, 137, 0.12)',
          paths: uPlot.paths.stepped!({ align: 1 }),
          points: { show: false },
        },
      ],
    },
    data,
    container,
  );
}
