import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** `npm run soak` sets SOAK=1: the same tests, at soak size. */
const SOAK = process.env.SOAK === '1';

export const soakScale = (normal: number, soak: number): number => (SOAK ? soak : normal);

/** Per-test time limit of the tests that grow at soak size. */
export const SOAK_TEST_TIMEOUT_MS = soakScale(60_000, 1_800_000);

const FIGURES = join(__dirname, '../../test-output/figures.jsonl');

/** Notes a figure of the run (operations raced, fuzz cases, ...) for the soak report. */
export function recordFigure(name: string, value: number): void {
  mkdirSync(join(FIGURES, '..'), { recursive: true });
  appendFileSync(FIGURES, `${JSON.stringify({ name, value, soak: SOAK })}\n`);
}
