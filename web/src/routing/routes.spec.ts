import { pathOf, Route, routeOf, routeOfResource, withQuery } from './routes';

describe('routeOf', () => {
  it.each<[string, Route]>([
    ['/console', { screen: 'scopes' }],
    ['/console/', { screen: 'scopes' }],
    ['/console/scopes/sales', { screen: 'scope', scope: 'sales' }],
    ['/console/scopes/sales/', { screen: 'scope', scope: 'sales' }],
    [
      '/console/scopes/sales/streams/orders',
      { screen: 'stream', scope: 'sales', stream: 'orders' },
    ],
    ['/console/scopes/a.b-c/streams/x.y', { screen: 'stream', scope: 'a.b-c', stream: 'x.y' }],
    [
      '/console/scopes/sales/readergroups/billing',
      { screen: 'readerGroup', scope: 'sales', group: 'billing' },
    ],
    ['/console/audit', { screen: 'audit' }],
    ['/console/health', { screen: 'health' }],
    ['/console/apply', { screen: 'apply' }],
    ['/console/scopes', { screen: 'notFound' }],
    ['/console/scopes/sales/streams', { screen: 'notFound' }],
    ['/console/scopes/sales/things/x', { screen: 'notFound' }],
    ['/console/scopes/sales/streams/orders/more', { screen: 'notFound' }],
    ['/console/scopes/%E0%A4%A', { screen: 'notFound' }],
    ['/console/nothing', { screen: 'notFound' }],
    ['/consoles', { screen: 'notFound' }],
    ['/docs', { screen: 'notFound' }],
  ])('%s shows %j', (path, route) => {
    expect(routeOf(path)).toEqual(route);
  });

  it('reads back every path it writes', () => {
    const routes: Exclude<Route, { screen: 'notFound' }>[] = [
      { screen: 'scopes' },
      { screen: 'scope', scope: 'sales' },
      { screen: 'stream', scope: 'sales', stream: 'or ders/x' },
      { screen: 'readerGroup', scope: 's', group: 'g' },
      { screen: 'audit' },
      { screen: 'health' },
      { screen: 'apply' },
    ];
    expect(routes.map((route) => routeOf(pathOf(route)))).toEqual(routes);
  });
});

describe('withQuery', () => {
  it('leaves out empty values', () => {
    expect(withQuery('/console/audit', { principal: 'ann', resource: '', to: undefined })).toEqual(
      '/console/audit?principal=ann',
    );
    expect(withQuery('/console', {})).toEqual('/console');
  });
});

describe('routeOfResource', () => {
  it.each<[string, Route | undefined]>([
    ['prn::/scope:sales', { screen: 'scope', scope: 'sales' }],
    ['prn::/scope:sales/stream:orders', { screen: 'stream', scope: 'sales', stream: 'orders' }],
    ['prn::/scope:sales/reader-group:g', { screen: 'readerGroup', scope: 'sales', group: 'g' }],
    ['prn::/', undefined],
    ['prn::/scope:sales/key-value-table:x', undefined],
  ])('%s links to %j', (resource, route) => {
    expect(routeOfResource(resource)).toEqual(route);
  });
});
