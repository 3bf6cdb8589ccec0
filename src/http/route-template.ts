import type { Application, Request } from 'express';
import { match } from 'path-to-regexp';

/** The route label of a request that no route or mounted handler answered (mostly 404s). */
export const UNMATCHED_ROUTE = 'unmatched';

interface RouteEntry {
  template: string;
  methods: Record<string, boolean>;
  matches(path: string): boolean;
}

interface RouterStack {
  router?: { stack?: { route?: { path: unknown; methods: Record<string, boolean> } }[] };
}

const routesOfApp = new WeakMap<Application, RouteEntry[]>();

/** The application's routes, read from its router once Nest has registered them. */
function routesOf(app: Application): RouteEntry[] {
  let routes = routesOfApp.get(app);
  if (!routes) {
    routes = ((app as RouterStack).router?.stack ?? []).flatMap(({ route }) => {
      if (!route || typeof route.path !== 'string') return [];
      // As Express matches them by default: case-insensitive, with an optional trailing slash.
      const matcher = match(route.path, { sensitive: false, trailing: true, decode: false });
      return [{ template: route.path, methods: route.methods, matches: (p) => !!matcher(p) }];
    });
    // Before Nest has registered the routes there is nothing to remember yet.
    if (routes.length > 0) routesOfApp.set(app, routes);
  }
  return routes;
}

const handles = (methods: Record<string, boolean>, method: string): boolean =>
  methods._all || methods[method] || (method === 'head' && methods.get) || false;

/** The template of the route that would serve this method and path, as Express picks it. */
function lookUp(req: Request): string | undefined {
  if (!req.app) return undefined;
  const method = req.method.toLowerCase();
  const path = req.originalUrl.split('?', 1)[0];
  return routesOf(req.app).find((route) => handles(route.methods, method) && route.matches(path))
    ?.template;
}

/** Labels of requests whose response has begun: the route no longer changes. */
const settled = new WeakMap<Request, string>();

function label(req: Request): string {
  const route = req.route as { path?: unknown } | undefined;
  if (route && typeof route.path === 'string') return req.baseUrl + route.path;
  if (req.baseUrl) return `${req.baseUrl}/*`;
  return lookUp(req) ?? UNMATCHED_ROUTE;
}

/**
 * The route template of a request (`/v1/scopes/:scopeName`), never its raw path, so it can
 * label metrics and logs with bounded cardinality:
 * - the route that served it, as Express matched it (`req.route`, under `req.baseUrl`);
 * - `<mount>/*` when a mounted handler answered it (Swagger UI's files under `/docs`);
 * - the route it was meant for when the edge refused it before routing (a body of the wrong
 *   type or size), and also before the request has been routed at all: only then is the
 *   router's table matched here, since Express has not matched it;
 * - {@link UNMATCHED_ROUTE} otherwise.
 * Once the response has begun the label is settled and computed once, however many ask.
 */
export function routeTemplate(req: Request): string {
  const known = settled.get(req);
  if (known !== undefined) return known;
  const template = label(req);
  if (req.res?.headersSent) settled.set(req, template);
  return template;
}
