import { CONSOLE_ROOT } from '../routing/routes';

/**
 * Where the console signs in at an OpenID Connect provider: its issuer and the public client
 * (AUTH_OIDC_UI_CLIENT_ID) registered there for the console. The service writes both into the
 * page's head (src/console/serve-console.ts); both are public, as the provider's discovery is.
 */
export interface ProviderSettings {
  issuer: string;
  clientId: string;
}

/** The names of the `<meta>` elements (SIGN_IN_META of src/console/serve-console.ts). */
const META = { issuer: 'tributary-oidc-issuer', clientId: 'tributary-oidc-client-id' };

/**
 * Where the provider sends the browser back with the code: the redirect URI to register for the
 * client, on the console's own origin.
 */
export const SIGN_IN_CALLBACK_PATH = `${CONSOLE_ROOT}/sign-in/callback`;

interface Head {
  querySelector(selectors: string): { getAttribute(name: string): string | null } | null;
}

/** The provider the page may sign in at, when the service named one. */
export function providerSettingsOf(document: Head): ProviderSettings | undefined {
  const read = (name: string) =>
    document.querySelector(`meta[name="${name}"]`)?.getAttribute('content') || undefined;
  const issuer = read(META.issuer);
  const clientId = read(META.clientId);
  return issuer && clientId ? { issuer, clientId } : undefined;
}
