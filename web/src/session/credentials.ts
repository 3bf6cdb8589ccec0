/** Basic credentials as the header carries them (RFC 7617, UTF-8). */
export function basicAuthorization(user: string, password: string): string {
  const bytes = new TextEncoder().encode(`${user}:${password}`);
  return `Basic ${btoa(String.fromCharCode(...bytes))}`;
}

/** The `Authorization` header of an access token (RFC 6750). */
export const bearerAuthorization = (accessToken: string): string => `Bearer ${accessToken}`;

/**
 * Whether a 401's `WWW-Authenticate` (its challenges joined by commas) offers HTTP Basic; no
 * challenge at all counts as Basic, the service's own default.
 */
export function offersBasic(challenges: string | null): boolean {
  return challenges === null || /(^|,)\s*Basic(\s|,|$)/i.test(challenges);
}
