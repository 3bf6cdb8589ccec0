import { TEST_SERVER_ENV } from '../setup/test-server';
import { TcpProxy } from './tcp-proxy';
import { startTestApp, TestApp } from './test-app';

export interface ProxiedApp {
  t: TestApp;
  /** Stands between the app and its database: cut, freeze or restore it to make an outage. */
  proxy: TcpProxy;
  close(): Promise<void>;
}

/** The test app reaching its database through a TCP proxy the test controls. */
export async function startBehindProxy(env: NodeJS.ProcessEnv = {}): Promise<ProxiedApp> {
  const server = new URL(process.env[TEST_SERVER_ENV]!);
  const proxy = new TcpProxy(server.hostname, Number(server.port || 5432));
  await proxy.start();
  const t = await startTestApp({ DB_CONNECT_TIMEOUT_MS: '1000', ...env }, (url) =>
    proxy.route(url),
  );
  return {
    t,
    proxy,
    close: async () => {
      await proxy.restore();
      await t.close();
      await proxy.cut();
    },
  };
}
