import { ApiError } from './api-error';

describe('ApiError.of', () => {
  it('keeps an ApiError as it is', () => {
    const refused = new ApiError(409, { code: 'SCOPE_EXISTS' });
    expect(ApiError.of(refused)).toBe(refused);
  });

  it('makes anything else a 500 that says what was thrown', () => {
    const error = ApiError.of(new TypeError('x is undefined'));
    expect([error.status, error.problem]).toEqual([500, { detail: 'TypeError: x is undefined' }]);
  });
});
