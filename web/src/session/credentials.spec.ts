import { basicAuthorization, bearerAuthorization, offersBasic } from './credentials';

describe('offersBasic', () => {
  it.each([
    ['Basic realm="tributary", charset="UTF-8"', true],
    ['Basic realm="tributary", charset="UTF-8", Bearer realm="tributary"', true],
    ['Bearer realm="tributary", Basic realm="tributary"', true],
    ['Bearer realm="tributary"', false],
    ['Bearer realm="tributary", error="invalid_token"', false],
    ['Bearer realm="Basic"', false],
    [null, true],
  ])('%p offers Basic: %p', (challenges, offered) => {
    expect(offersBasic(challenges)).toBe(offered);
  });
});

describe('the Authorization header', () => {
  it('carries Basic credentials as RFC 7617 says, in UTF-8', () => {
    expect(basicAuthorization('zoë', 'pässword')).toBe(
      `Basic ${Buffer.from('zoë:pässword').toString('base64')}`,
    );
  });

  it("carries the provider's access token as a bearer token", () => {
    expect(bearerAuthorization('header.payload.signature')).toBe('Bearer header.payload.signature');
  });
});
