/** Reports of load (docs/extensions.md section 11) for tests of what they make. */

const MINUTE = 60_000;

/** A rate policy whose thresholds the reports below cross: a target of 100/s, splits into 3. */
export const RATE_POLICY = { type: 'BY_RATE_IN_EVENTS_PER_SEC', targetRate: 100, scaleFactor: 3 };

/** A report of `segment` measured for half an hour, 620.5/s over two minutes: it splits. */
export const hotReport = (segment: number) => ({
  segment,
  since: Date.now() - 30 * MINUTE,
  twoMinuteRate: 620.5,
  fiveMinuteRate: 300,
  tenMinuteRate: 150,
  twentyMinuteRate: 80,
});

/** A report of `segment` measured for half an hour, 5/s throughout: it is cold. */
export const coldReport = (segment: number) => ({
  segment,
  since: Date.now() - 30 * MINUTE,
  twoMinuteRate: 5,
  fiveMinuteRate: 5,
  tenMinuteRate: 5,
  twentyMinuteRate: 5,
});
