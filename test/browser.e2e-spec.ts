import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { findBrowser, launchChromium, packagedBrowser } from './support/browser';

jest.setTimeout(120_000);

/**
 * A fresh machine has Node and npm only: the browser tests must find a browser without apt and
 * without downloading one.
 */
describe('The browser the tests drive', () => {
  let server: Server;
  let url: string;

  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.setHeader('Content-Type', 'text/html');
      res.end('<title>probe</title><button onclick="this.textContent=\'clicked\'">press</button>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('honours CHROME_PATH first, and names a CHROME_PATH that does not exist', async () => {
    const packaged = await packagedBrowser();
    expect(await findBrowser({ CHROME_PATH: packaged.executablePath })).toMatchObject({
      executablePath: packaged.executablePath,
      source: 'CHROME_PATH',
    });
    await expect(findBrowser({ CHROME_PATH: '/nowhere/chrome' })).rejects.toThrow(
      'CHROME_PATH is /nowhere/chrome, which does not exist',
    );
  });

  it('renders and clicks a page in the Chromium shipped inside @sparticuz/chromium', async () => {
    const browser = await launchChromium(await packagedBrowser());
    try {
      expect(browser.binary.source).toBe('@sparticuz/chromium');
      await browser.page.goto(url);
      expect(await browser.page.title()).toBe('probe');
      await browser.page.click('button');
      expect(await browser.page.textContent('button')).toBe('clicked');
    } finally {
      await browser.close();
    }
  });
});
