import { HealthStatus } from './health-status';
import { aggregate, findContributor, HealthReport, withoutDetails } from './health-tree';

const { UP, DOWN, STARTING } = HealthStatus;
const leaf = (status: HealthStatus, vital: boolean): HealthReport => ({
  status,
  details: { note: status },
  vital,
});

describe('aggregate', () => {
  it('takes the lowest status of a contributor and all its descendants', () => {
    const node = aggregate('root', {
      status: UP,
      details: {},
      vital: false,
      children: {
        a: { status: UP, details: {}, vital: false, children: { deep: leaf(STARTING, false) } },
        b: leaf(UP, false),
      },
    });
    expect(node.status).toBe(STARTING);
    expect(node.children.a.status).toBe(STARTING);
    expect(node.children.a.children.deep).toMatchObject({ name: 'deep', status: STARTING });
    expect(node.children.b.status).toBe(UP);
  });

  it('is ready only when UP', () => {
    expect(aggregate('x', leaf(UP, false)).readiness).toBe(true);
    expect(aggregate('x', leaf(STARTING, false)).readiness).toBe(false);
    expect(aggregate('x', leaf(DOWN, false)).readiness).toBe(false);
  });

  it('stays alive when a dependency is down, and dies when a vital part is', () => {
    const withDatabaseDown = aggregate('root', {
      status: UP,
      details: {},
      vital: false,
      children: { database: leaf(DOWN, false), memory: leaf(UP, true) },
    });
    expect(withDatabaseDown).toMatchObject({ status: DOWN, readiness: false, liveness: true });
    expect(withDatabaseDown.children.database.liveness).toBe(true);

    const withMemoryDown = aggregate('root', {
      status: UP,
      details: {},
      vital: false,
      children: { database: leaf(UP, false), memory: leaf(DOWN, true) },
    });
    expect(withMemoryDown).toMatchObject({ status: DOWN, readiness: false, liveness: false });
    expect(withMemoryDown.children.memory.liveness).toBe(false);
  });

  it('keeps details and gives leaves empty children', () => {
    expect(aggregate('db', leaf(UP, false))).toEqual({
      name: 'db',
      status: UP,
      readiness: true,
      liveness: true,
      details: { note: 'UP' },
      children: {},
    });
  });
});

describe('findContributor', () => {
  const root: HealthReport = {
    status: UP,
    details: {},
    vital: false,
    children: { memory: { ...leaf(UP, true), children: { heap: leaf(UP, true) } } },
  };

  it('walks a path of children', () => {
    expect(findContributor(root, [])).toBe(root);
    expect(findContributor(root, ['memory', 'heap'])).toBe(root.children!.memory.children!.heap);
  });

  it('finds nothing for unknown names, below leaves, or inherited properties', () => {
    for (const path of [
      ['nope'],
      ['memory', 'nope'],
      ['memory', 'heap', 'x'],
      ['__proto__'],
      ['constructor'],
      ['toString'],
    ]) {
      expect(findContributor(root, path)).toBeUndefined();
    }
  });
});

describe('withoutDetails', () => {
  it('keeps every status of the tree and drops every details map in it', () => {
    const tree = aggregate('root', {
      status: UP,
      details: { path: '/data' },
      vital: false,
      children: {
        memory: { ...leaf(UP, true), children: { heap: leaf(DOWN, true) } },
        disk: leaf(UP, false),
      },
    });
    const seen = withoutDetails(tree);
    expect(seen).toEqual({
      name: 'root',
      status: DOWN,
      readiness: false,
      liveness: false,
      children: {
        memory: {
          name: 'memory',
          status: DOWN,
          readiness: false,
          liveness: false,
          children: {
            heap: { name: 'heap', status: DOWN, readiness: false, liveness: false, children: {} },
          },
        },
        disk: { name: 'disk', status: UP, readiness: true, liveness: true, children: {} },
      },
    });
    // The tree it was given, shared by every caller, keeps its details.
    expect(tree.details).toEqual({ path: '/data' });
    expect(tree.children.memory.children.heap.details).toEqual({ note: 'DOWN' });
  });
});
