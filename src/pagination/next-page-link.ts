/**
 * The `Link` header of a page that has a next one (RFC 8288): the request's own path and query
 * (filters kept in place), with the next token and the page size. A relative reference, resolved
 * against the request's URL, so it stays right behind a proxy that rewrites the host.
 */
export function nextPageLink(requestUrl: string, token: string, limit: number): string {
  const url = new URL(requestUrl, 'http://origin.invalid');
  url.searchParams.set('continuationToken', token);
  url.searchParams.set('limit', String(limit));
  return `<${url.pathname}${url.search}>; rel="next"`;
}
