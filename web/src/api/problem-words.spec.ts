import { describeProblem, fieldErrors, UNREACHABLE } from './problem-words';

describe('describeProblem', () => {
  it.each([
    [
      412,
      { code: 'SCOPE_NOT_EMPTY', detail: 'Scope s is not empty' },
      'The scope still has streams',
    ],
    [412, { code: 'STREAM_NOT_SEALED' }, 'seal it before deleting it'],
    [412, { code: 'PRECONDITION_FAILED' }, 'Someone else changed it since you opened it.'],
    [
      409,
      { code: 'SCOPE_EXISTS', detail: 'Scope s exists' },
      'A scope with this name already exists.',
    ],
    [503, { code: 'DATABASE_UNAVAILABLE' }, 'The service cannot reach its database: try again'],
    [503, undefined, 'The service cannot reach its database: try again'],
    [
      404,
      { code: 'SCOPE_NOT_FOUND', detail: 'Scope nope does not exist' },
      'Scope nope does not exist',
    ],
    [UNREACHABLE, undefined, 'The service cannot be reached: is it running?'],
    [500, undefined, 'The service answered 500 without saying why.'],
  ])('%p %p says %p', (status, problem, words) => {
    expect(describeProblem(status, problem)).toContain(words);
  });

  it("says each rule of the scope's policy a change breaks", () => {
    const violations = [
      { rule: 'maxStreams', limit: 5, actual: 6, detail: 'Six streams, over the limit of 5.' },
      { rule: 'streamNames', limit: ['a-*'], detail: 'The name does not match a-*.' },
    ];
    expect(describeProblem(422, { code: 'POLICY_VIOLATION', violations })).toEqual(
      "The scope's policy does not allow this: Six streams, over the limit of 5. The name does not match a-*.",
    );
  });

  it('names the missing permission of a 403', () => {
    expect(
      describeProblem(403, {
        code: 'PERMISSION_DENIED',
        detail: 'READ_UPDATE on prn::/scope:sales is required',
      }),
    ).toEqual('You may not do this: READ_UPDATE on prn::/scope:sales is required.');
  });

  it('names each missing permission and its resource in words, when the 403 lists them', () => {
    expect(
      describeProblem(403, {
        code: 'PERMISSION_DENIED',
        detail: 'Nothing was applied; missing: READ_UPDATE on prn::/, READ on prn::/scope:s',
        missing: [
          { permission: 'READ_UPDATE', resource: 'prn::/' },
          { permission: 'READ', resource: 'prn::/scope:s' },
        ],
      }),
    ).toEqual(
      'You may not do this: it needs READ_UPDATE (read and change) on the root (the list of ' +
        'scopes) (prn::/), READ (read) on scope s (prn::/scope:s).',
    );
  });

  it('lists the conflicts of an apply', () => {
    expect(
      describeProblem(409, {
        code: 'APPLY_CONFLICT',
        conflicts: [
          { resource: 'prn::/scope:s/stream:a', message: 'Stream s/a is sealed' },
          {
            resource: 'prn::/scope:s/reader-group:g',
            message: 'Reader group s/g reads other streams',
          },
        ],
      }),
    ).toEqual(
      'The document conflicts with what exists: Stream s/a is sealed; Reader group s/g reads other streams.',
    );
  });
});

describe('fieldErrors', () => {
  it('keys each message by its field, an element of a list by the list', () => {
    expect(
      fieldErrors({
        errors: [
          { field: 'scalingPolicy.minSegments', message: 'must be at least 1' },
          { field: 'streamTags[3]', message: 'is too long' },
          { field: 'streamTags[5]', message: 'is empty' },
        ],
      }),
    ).toEqual({
      'scalingPolicy.minSegments': 'must be at least 1',
      streamTags: 'is too long; is empty',
    });
    expect(fieldErrors(undefined)).toEqual({});
  });
});
