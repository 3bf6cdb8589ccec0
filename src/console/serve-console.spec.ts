import { consoleContentSecurityPolicy } from './serve-console';

describe('consoleContentSecurityPolicy', () => {
  const directives = (policy: string) => policy.split('; ');

  it('lets the page talk to its own origin only, and run no inline script', () => {
    expect(directives(consoleContentSecurityPolicy())).toEqual(
      expect.arrayContaining([
        "script-src 'self'",
        "connect-src 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ]),
    );
  });

  it("adds the provider's origins to connect-src, and nowhere else", () => {
    const policy = consoleContentSecurityPolicy([
      'https://id.example.com',
      'https://token.example.com',
    ]);
    expect(directives(policy)).toContain(
      "connect-src 'self' https://id.example.com https://token.example.com",
    );
    expect(policy.match(/example\.com/g)).toHaveLength(2);
  });
});
