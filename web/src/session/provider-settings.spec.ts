import { providerSettingsOf, SIGN_IN_CALLBACK_PATH } from './provider-settings';

/** A page's head with these `<meta name content>` elements. */
const head = (meta: Record<string, string>) => ({
  querySelector(selector: string) {
    const name = /^meta\[name="([^"]+)"\]$/.exec(selector)?.[1];
    const content = name === undefined ? undefined : meta[name];
    return content === undefined ? null : { getAttribute: () => content };
  },
});

describe('providerSettingsOf', () => {
  it('reads the issuer and the client id the service wrote into the page', () => {
    expect(
      providerSettingsOf(
        head({
          'tributary-oidc-issuer': 'https://id.example.com/realms/streams',
          'tributary-oidc-client-id': 'tributary-console',
        }),
      ),
    ).toEqual({ issuer: 'https://id.example.com/realms/streams', clientId: 'tributary-console' });
  });

  it.each([
    [{}],
    [{ 'tributary-oidc-issuer': 'https://id.example.com' }],
    [{ 'tributary-oidc-client-id': 'c' }],
    [{ 'tributary-oidc-issuer': '', 'tributary-oidc-client-id': 'c' }],
  ])('offers no provider sign-in without both (%j)', (meta) => {
    expect(providerSettingsOf(head(meta))).toBeUndefined();
  });

  it('comes back under the console', () => {
    expect(SIGN_IN_CALLBACK_PATH).toBe('/console/sign-in/callback');
  });
});
