import { randomBytes } from 'node:crypto';

/** A name no other test uses. */
export const uniqueName = (prefix = 'n'): string => `${prefix}-${randomBytes(4).toString('hex')}`;

/** A stream's create body: `minSegments` fixed segments, and whatever else is given. */
export const fixedStream = (streamName: string, minSegments = 1, more: object = {}) => ({
  streamName,
  scalingPolicy: { type: 'FIXED_NUM_SEGMENTS', minSegments },
  ...more,
});

export const PROBLEM_HEADERS = { Accept: 'application/problem+json' };

/** Creates a scope through the API and returns its name. */
export async function createScope(
  http: { post(url: string): { send(body: object): PromiseLike<{ status: number }> } },
  prefix = 'scope',
): Promise<string> {
  const scopeName = uniqueName(prefix);
  const res = await http.post('/v1/scopes').send({ scopeName });
  if (res.status !== 201) throw new Error(`could not create scope ${scopeName}: ${res.status}`);
  return scopeName;
}
