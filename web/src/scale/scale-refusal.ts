import type { ProblemFacts } from '../api/problem-words';

/** What refused a scale: the status, the problem document, and the words the console has for it. */
export interface Refusal {
  status: number;
  problem?: ProblemFacts;
  /** The console's own words for it, when the code is not one of the scale's. */
  message: string;
}

/** The codes that mean the stream changed since its segments were read: the map is read again. */
const STALE = new Set([
  'SEGMENT_NOT_ACTIVE',
  'PRECONDITION_FAILED',
  'STREAM_SEALED',
  'STREAM_NOT_FOUND',
  'SCOPE_NOT_FOUND',
]);

/** Whether a refusal means the map shows a stream that is no longer so. */
export const showsStaleStream = (refusal: Refusal): boolean =>
  STALE.has(refusal.problem?.code ?? '');

const sentence = (text: string): string => (/[.!?]$/.test(text) ? text : `${text}.`);

/** Why the API refused, in words, for the scale's own codes (its detail names what it found). */
function reason({ problem, message }: Refusal): string {
  const detail = problem?.detail;
  switch (problem?.code) {
    case 'SEGMENT_NOT_ACTIVE':
      return (
        `${sentence(detail ?? 'A selected segment is no longer active')} Someone scaled the ` +
        'stream since its segments were read.'
      );
    case 'PRECONDITION_FAILED':
      return (
        'Someone else changed the stream since its segments were read (scaled it, or changed ' +
        'its configuration).'
      );
    case 'BELOW_MIN_SEGMENTS':
      return (
        `${sentence(detail ?? 'The scale would leave too few segments')} Merge fewer ` +
        "segments, or lower the scaling policy's minimum first."
      );
    case 'STREAM_SEALED':
      return 'The stream is sealed: a sealed stream cannot be scaled.';
    case 'RANGES_DO_NOT_MATCH':
      return sentence(
        detail ?? 'The new ranges do not cover exactly the key space of the sealed segments',
      );
    default:
      return sentence(message);
  }
}

/**
 * A refused scale in words: why, and what happened. A dry run says the scale would be refused;
 * a scale says that nothing was scaled and, when the stream had changed, that the map now shows
 * it as it is.
 */
export function scaleRefusal(refusal: Refusal, { dryRun }: { dryRun: boolean }): string {
  const why = reason(refusal);
  if (dryRun) return `The scale would be refused. ${why}`;
  const after = showsStaleStream(refusal)
    ? ' The map now shows the stream as it is: check the selection and the preview, then Scale again.'
    : '';
  return `Nothing was scaled. ${why}${after}`;
}
