import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A self-signed certificate for localhost, made for this run with openssl. */
export async function selfSignedCertificate(): Promise<{
  certFile: string;
  keyFile: string;
  cert: Buffer;
}> {
  const dir = await mkdtemp(join(tmpdir(), 'tributary-tls-'));
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-days',
      '1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return { certFile, keyFile, cert: await readFile(certFile) };
}

const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
const openssl = (args: string[], cwd: string): void => {
  execFileSync('openssl', args, { cwd, stdio: 'ignore' });
};

/**
 * A private certificate authority made for this run, and a server certificate it signed for
 * localhost and 127.0.0.1, as a managed PostgreSQL service or a company's own CA hands out.
 */
export async function privateAuthority(): Promise<{
  /** Where the files are, to remove. */
  dir: string;
  caFile: string;
  certFile: string;
  keyFile: string;
}> {
  const dir = await mkdtemp(join(tmpdir(), 'tributary-ca-'));
  openssl(
    [
      'req',
      '-x509',
      ...EC_KEY,
      '-subj',
      '/CN=Tributary test authority',
      '-days',
      '1',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
    ],
    dir,
  );
  openssl(
    [
      'req',
      '-new',
      ...EC_KEY,
      '-subj',
      '/CN=localhost',
      '-keyout',
      'server.key',
      '-out',
      'server.csr',
    ],
    dir,
  );
  await writeFile(join(dir, 'server.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  openssl(
    [
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-days',
      '1',
      '-extfile',
      'server.ext',
      '-out',
      'server.crt',
    ],
    dir,
  );
  return {
    dir,
    caFile: join(dir, 'ca.pem'),
    certFile: join(dir, 'server.crt'),
    keyFile: join(dir, 'server.key'),
  };
}
