import { contributorPath } from './contributor-path';

describe('contributorPath', () => {
  it('reads wildcard segments and encoded slashes alike', () => {
    expect(contributorPath(['memory', 'heap'])).toEqual(['memory', 'heap']);
    expect(contributorPath(['memory/heap'])).toEqual(['memory', 'heap']);
    expect(contributorPath('database')).toEqual(['database']);
  });
});
