/** What stands for each value of a query string in a span. */
export const REDACTED = 'REDACTED';

/**
 * A request target's query string with its parameters' names and never their values (a sign-in
 * callback's `code`, whatever a client put there): `limit=REDACTED&from=REDACTED`. Undefined
 * when there is no query string.
 */
export function queryNamesOf(target: string | undefined): string | undefined {
  const start = target?.indexOf('?') ?? -1;
  if (target === undefined || start < 0 || start === target.length - 1) return undefined;
  const names = [...new URLSearchParams(target.slice(start + 1)).keys()];
  return names.map((name) => `${encodeURIComponent(name)}=${REDACTED}`).join('&');
}
