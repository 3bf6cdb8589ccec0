import { parse, Token } from 'path-to-regexp';
import { METRICS_PATH } from '../src/metrics/metrics.controller';
import { API_DOCS_PATHS } from '../src/openapi/openapi-document';
import { committedDocument, documentedOperations } from './support/openapi';
import { startTestApp, TestApp } from './support/test-app';

interface RouterLayer {
  route?: { path: unknown; methods: Record<string, boolean> };
}

/**
 * An Express path in OpenAPI's syntax: parameters and wildcards (`:id`, `*id`) become `{id}`,
 * optional groups (`{/:id}`) are flattened. Express parses its paths with this same library.
 */
const toOpenApiPath = (path: string): string => {
  const render = (tokens: Token[]): string =>
    tokens
      .map((token) => {
        if (token.type === 'text') return token.value;
        if (token.type === 'group') return render(token.tokens);
        return `{${token.name}}`;
      })
      .join('');
  return render(parse(path).tokens);
};

/**
 * Routes served beside the API on purpose and kept out of its document: the document itself
 * and Swagger UI, and the Prometheus scrape (a text format for a monitoring system, not an
 * operation of the API; its controller is excluded from the document).
 */
const isUndocumentedRoute = (path: string): boolean =>
  path === API_DOCS_PATHS.json ||
  path === API_DOCS_PATHS.yaml ||
  path === API_DOCS_PATHS.ui ||
  path.startsWith(`${API_DOCS_PATHS.ui}/`) ||
  path === METRICS_PATH;

/**
 * Both ways: every route the application registers is in the committed document, and every
 * operation of the document is a registered route. Routes do not depend on the Swagger plugin,
 * so the application runs in process here.
 */
describe('The OpenAPI document against the registered routes (e2e)', () => {
  let t: TestApp;
  let registered: string[];
  const documented = documentedOperations(committedDocument()).map(
    ({ method, path }) => `${method.toUpperCase()} ${path}`,
  );

  beforeAll(async () => {
    t = await startTestApp();
    const router = (t.app.getHttpAdapter().getInstance() as { router: { stack: RouterLayer[] } })
      .router;
    registered = router.stack.flatMap(({ route }) => {
      if (!route || typeof route.path !== 'string' || isUndocumentedRoute(route.path)) return [];
      const path = toOpenApiPath(route.path);
      return Object.keys(route.methods)
        .filter((method) => route.methods[method])
        .map((method) => `${method.toUpperCase()} ${path}`);
    });
  });
  afterAll(() => t.close());

  it('finds the routes of every feature', () => {
    expect(registered).toEqual(
      expect.arrayContaining([
        'POST /v1/scopes',
        'GET /v1/scopes/{scopeName}/streams/{streamName}/scaling-events',
        'DELETE /v1/scopes/{scopeName}/readergroups/{readerGroupName}/readers/{readerId}',
      ]),
    );
    expect(new Set(registered).size).toBe(registered.length);
  });

  it('documents every registered route', () => {
    expect(registered.filter((route) => !documented.includes(route))).toEqual([]);
  });

  it('registers every documented operation', () => {
    expect(documented.filter((route) => !registered.includes(route))).toEqual([]);
  });

  it('serves the routes it leaves out of the document', async () => {
    await t.http.get(API_DOCS_PATHS.ui).expect(200).expect('Content-Type', /html/);
    await t.http.get(API_DOCS_PATHS.json).expect(200).expect('Content-Type', /json/);
    await t.http.get(API_DOCS_PATHS.yaml).expect(200).expect('Content-Type', /yaml/);
    await t.http
      .get(METRICS_PATH)
      .expect(200)
      .expect('Content-Type', /text\/plain/);
  });
});
