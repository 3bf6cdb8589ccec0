import { parseCondition } from './entity-tag';
import { entityTagOf, PreconditionFailedError, requireMatch } from './resource-version';

describe('resource versions and If-Match', () => {
  const current = { created: '1700000000000001', version: '7' };

  it('tags a state by its creation instant and version, strongly', () => {
    expect(entityTagOf(current)).toBe('"1700000000000001.7"');
    // The same version of another incarnation (deleted, created again) is another tag.
    expect(entityTagOf({ ...current, created: '1700000000000002' })).not.toBe(entityTagOf(current));
  });

  it('lets a change through without a condition, with *, or with the current strong tag', () => {
    for (const header of [undefined, '*', '"1700000000000001.7"', '"x", "1700000000000001.7"']) {
      expect(() => requireMatch(parseCondition(header), 'stream s/t', current)).not.toThrow();
    }
  });

  it('refuses stale, other and weak tags with PRECONDITION_FAILED', () => {
    for (const header of ['"1700000000000001.6"', '"x"', 'W/"1700000000000001.7"']) {
      const refuse = () => requireMatch(parseCondition(header), 'stream s/t', current);
      expect(refuse).toThrow(PreconditionFailedError);
      expect(refuse).toThrow(/stream s\/t/);
    }
    const error = new PreconditionFailedError('scope s', '"1.1"');
    expect([error.kind, error.code]).toEqual(['precondition', 'PRECONDITION_FAILED']);
  });
});
