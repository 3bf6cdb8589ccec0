// Loaded before the service (`node --import`): when the process is asked to stop (SIGTERM),
// writes the packages it has required so far, one name per line, to LOADED_PACKAGES_FILE.
// Its handler is registered before the service's own, so it runs first, while the process
// still has everything it required.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import process from 'node:process';

const required = createRequire(import.meta.url).cache;

process.on('SIGTERM', () => {
  const packages = new Set();
  for (const path of Object.keys(required)) {
    const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
    if (match) packages.add(match[1]);
  }
  writeFileSync(process.env.LOADED_PACKAGES_FILE, [...packages].sort().join('\n'));
});
