import type { LoadScale, ScalingConfig } from '../api/types';

/** Whether reports of load may scale a stream of this policy (a fixed one they never do). */
export const scalesByLoad = (policy: ScalingConfig): boolean =>
  policy.type !== 'FIXED_NUM_SEGMENTS';

/** A scale by load in words: `segment 3: two-minute rate 620.5 > 5 x 100: split into 3`. */
export const loadScaleWords = (scale: LoadScale): string =>
  `segment ${scale.segment}: ${scale.because}`;
