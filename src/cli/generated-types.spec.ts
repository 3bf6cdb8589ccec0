import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '../..');

describe('the CLI client types', () => {
  it('are generated from the committed openapi.json (run `npm run cli:types` when this fails)', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'tributary-types-')), 'api.d.ts');
    const generator = join(ROOT, 'node_modules/openapi-typescript/bin/cli.js');
    const run = spawnSync(process.execPath, [generator, 'openapi.json', '--output', out], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(run.status).toBe(0);
    const committed = readFileSync(join(ROOT, 'src/cli/generated/api.d.ts'), 'utf8');
    expect(readFileSync(out, 'utf8')).toBe(committed);
  });
});
