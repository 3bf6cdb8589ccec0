import { DECORATORS } from '@nestjs/swagger';
import { ApiProblemResponses } from './api-problem-responses';

class Sample {
  @ApiProblemResponses(400, 404, 503)
  create(): void {}
}

const responses = (): Record<string, { description: string; content?: object; headers?: object }> =>
  Reflect.getMetadata(
    DECORATORS.API_RESPONSE,
    Object.getOwnPropertyDescriptor(Sample.prototype, 'create')!.value as object,
  ) as never;

describe('ApiProblemResponses', () => {
  it('documents each status with the Problem schema as application/problem+json', () => {
    expect(Object.keys(responses())).toEqual(['400', '404', '503']);
    for (const response of Object.values(responses())) {
      expect(response.content).toEqual({
        'application/problem+json': {
          schema: { $ref: '#/components/schemas/Problem' },
          example: expect.objectContaining({ type: expect.stringMatching(/^urn:tributary:/) }),
        },
      });
    }
  });

  it('says which bodies are empty unless asked for, and when to retry', () => {
    expect(responses()['404'].description).toMatch(/empty unless .*Accept/);
    expect(responses()['400'].description).not.toMatch(/empty unless/);
    expect(responses()['503'].headers).toHaveProperty('Retry-After');
    expect(responses()['400'].headers).toBeUndefined();
  });

  it('refuses a status it cannot describe', () => {
    expect(() => ApiProblemResponses(418)).toThrow(/418/);
  });
});
