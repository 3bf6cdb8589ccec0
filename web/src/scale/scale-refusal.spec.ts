import { scaleRefusal, showsStaleStream } from './scale-refusal';

const refusal = (status: number, code?: string, detail?: string, message = 'x') => ({
  status,
  problem: code ? { code, detail } : undefined,
  message,
});

describe('scaleRefusal', () => {
  it('says a segment was sealed meanwhile, naming it, and that the map shows the stream anew', () => {
    const refused = refusal(
      412,
      'SEGMENT_NOT_ACTIVE',
      'Segment 3 is not active in the current epoch (4)',
    );
    expect(scaleRefusal(refused, { dryRun: false })).toEqual(
      'Nothing was scaled. Segment 3 is not active in the current epoch (4). Someone scaled the ' +
        'stream since its segments were read. The map now shows the stream as it is: check the ' +
        'selection and the preview, then Scale again.',
    );
    expect(showsStaleStream(refused)).toBe(true);
  });

  it('says someone else changed the stream', () => {
    expect(scaleRefusal(refusal(412, 'PRECONDITION_FAILED'), { dryRun: false })).toEqual(
      'Nothing was scaled. Someone else changed the stream since its segments were read ' +
        '(scaled it, or changed its configuration). The map now shows the stream as it is: ' +
        'check the selection and the preview, then Scale again.',
    );
  });

  it('says how many segments the scale would leave, and what to do instead', () => {
    const refused = refusal(
      412,
      'BELOW_MIN_SEGMENTS',
      'The scale would leave 1 active segment; the scaling policy needs at least 2',
    );
    expect(scaleRefusal(refused, { dryRun: true })).toEqual(
      'The scale would be refused. The scale would leave 1 active segment; the scaling policy ' +
        "needs at least 2. Merge fewer segments, or lower the scaling policy's minimum first.",
    );
    expect(showsStaleStream(refused)).toBe(false);
  });

  it('says a sealed stream cannot be scaled', () => {
    expect(
      scaleRefusal(refusal(412, 'STREAM_SEALED', 'Stream s/t is sealed'), { dryRun: false }),
    ).toEqual(
      'Nothing was scaled. The stream is sealed: a sealed stream cannot be scaled. The map now ' +
        'shows the stream as it is: check the selection and the preview, then Scale again.',
    );
  });

  it("gives the service's account of ranges that do not match", () => {
    const detail =
      'The new ranges must cover exactly the key space of the sealed segments: the sealed ' +
      'segments cover [0.25, 0.5), the new ranges [0.25, 0.4)';
    const refused = refusal(400, 'RANGES_DO_NOT_MATCH', detail);
    expect(scaleRefusal(refused, { dryRun: false })).toEqual(`Nothing was scaled. ${detail}.`);
    expect(showsStaleStream(refused)).toBe(false);
  });

  it('falls back on the words the console has for any other refusal', () => {
    expect(
      scaleRefusal(refusal(503, 'DATABASE_UNAVAILABLE', undefined, 'Try again.'), {
        dryRun: false,
      }),
    ).toEqual('Nothing was scaled. Try again.');
    expect(showsStaleStream(refusal(404, 'STREAM_NOT_FOUND'))).toBe(true);
  });
});
