import express from 'express';
import request from 'supertest';
import { requestId } from './request-id.middleware';
import { routeTemplate, UNMATCHED_ROUTE } from './route-template';

/** An Express app shaped like ours: an edge gate before routing, routes, a mount, a 404. */
function appRecordingTemplates(seen: string[]) {
  const app = express();
  app.use(requestId);
  app.use((req, res, next) => {
    res.on('finish', () => seen.push(routeTemplate(req)));
    next();
  });
  app.use((req, res, next) => {
    if (req.is('text/plain')) res.sendStatus(415);
    else next();
  });
  app.get('/things/:id', (_req, res) => res.sendStatus(200));
  app.post('/things', (_req, res) => res.sendStatus(201));
  app.use('/docs', express.static(__dirname));
  app.use((_req, res) => res.sendStatus(404));
  return app;
}

describe('routeTemplate', () => {
  const seen: string[] = [];
  const http = request(appRecordingTemplates(seen));
  const templateOf = async (call: PromiseLike<unknown>): Promise<string | undefined> => {
    seen.length = 0;
    await call;
    await new Promise((resolve) => setImmediate(resolve));
    return seen[0];
  };

  it('names the route that served the request, never its path', async () => {
    expect(await templateOf(http.get('/things/42').expect(200))).toBe('/things/:id');
    expect(await templateOf(http.head('/things/42').expect(200))).toBe('/things/:id');
    expect(await templateOf(http.get('/THINGS/42/').expect(200))).toBe('/things/:id');
  });

  it('names the route a request refused before routing was meant for', async () => {
    const refused = http.post('/things').set('Content-Type', 'text/plain').send('x').expect(415);
    expect(await templateOf(refused)).toBe('/things');
  });

  it('names the mount of a handler that answered below it', async () => {
    expect(await templateOf(http.get('/docs/route-template.ts').expect(200))).toBe('/docs/*');
  });

  it('gives unknown routes and methods one fixed label', async () => {
    expect(await templateOf(http.get('/nope/1').expect(404))).toBe(UNMATCHED_ROUTE);
    expect(await templateOf(http.delete('/things/42').expect(404))).toBe(UNMATCHED_ROUTE);
    expect(await templateOf(http.get('/docs/nothing-here').expect(404))).toBe(UNMATCHED_ROUTE);
  });
});
