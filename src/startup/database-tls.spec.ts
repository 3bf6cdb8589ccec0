import { tlsFailure } from './database-tls';

const target = { where: 'db.example.com:5432', user: 'app', database: 'tributary' };
const URL_WITH_CA =
  'postgres://app@db.example.com/tributary?sslmode=verify-full&sslrootcert=/etc/ca.pem';
const failure = (fields: Record<string, string>, message = 'failed'): Error =>
  Object.assign(new Error(message), fields);
const lineOf = (error: unknown, url = URL_WITH_CA) => tlsFailure(error, target, url)?.message;

describe('TLS failures to the database server, as one line with the remedy', () => {
  it.each([
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    'SELF_SIGNED_CERT_IN_CHAIN',
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  ])('a certificate signed by no trusted authority (%s)', (code) => {
    expect(lineOf(failure({ code }))).toBe(
      'the PostgreSQL server at db.example.com:5432 presented a certificate that no authority ' +
        `this service trusts has signed (${code}): name the authority's certificate in ` +
        'DATABASE_URL with sslrootcert=/path/to/ca.pem (every sslmode but no-verify checks the ' +
        'certificate)',
    );
  });

  it('a certificate for another name', () => {
    const error = failure(
      { code: 'ERR_TLS_CERT_ALTNAME_INVALID' },
      "Hostname/IP does not match certificate's altnames: Host: db.example.com. is not in the cert's altnames: DNS:other.example.com",
    );
    expect(lineOf(error)).toBe(
      'the certificate of the PostgreSQL server at db.example.com:5432 is not for that name ' +
        "(ERR_TLS_CERT_ALTNAME_INVALID: Hostname/IP does not match certificate's altnames: Host: " +
        "db.example.com. is not in the cert's altnames: DNS:other.example.com): connect by a " +
        'name the certificate lists, or have it reissued for this one',
    );
  });

  it.each(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID'])('a certificate out of date (%s)', (code) => {
    expect(lineOf(failure({ code }))).toBe(
      `the certificate of the PostgreSQL server at db.example.com:5432 is out of date (${code}): ` +
        "renew it on the server, or set this machine's clock right",
    );
  });

  it('a server without TLS, and one that accepts nothing else', () => {
    expect(lineOf(new Error('The server does not support SSL connections'))).toBe(
      'the PostgreSQL server at db.example.com:5432 does not accept TLS connections: turn ssl ' +
        'on in its configuration, or remove sslmode from DATABASE_URL',
    );
    const refused = failure(
      { code: '28000' },
      'no pg_hba.conf entry for host "10.0.0.5", user "app", database "tributary", no encryption',
    );
    expect(lineOf(refused)).toBe(
      'the PostgreSQL server at db.example.com:5432 accepts only encrypted connections (no ' +
        'pg_hba.conf entry for host "10.0.0.5", user "app", database "tributary", no ' +
        'encryption): add sslmode=verify-full&sslrootcert=/path/to/ca.pem to DATABASE_URL',
    );
  });

  it('a file DATABASE_URL names that cannot be read', () => {
    const error = failure(
      { code: 'ENOENT', path: '/etc/ca.pem', syscall: 'open' },
      "ENOENT: no such file or directory, open '/etc/ca.pem'",
    );
    expect(lineOf(error)).toBe(
      'the file sslrootcert=/etc/ca.pem of DATABASE_URL cannot be read (ENOENT): fix the path, ' +
        'or let this user read the file',
    );
  });

  it('leaves every other failure to the rest of start-up', () => {
    expect(lineOf(failure({ code: 'ECONNREFUSED' }))).toBeUndefined();
    expect(lineOf(failure({ code: '28P01' }, 'password authentication failed'))).toBeUndefined();
    expect(lineOf(failure({ code: 'ENOENT', path: '/elsewhere' }))).toBeUndefined();
  });
});
