import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AppConfig, InvalidConfigError, loadConfig } from '../src/config/app-config';
import {
  CONFIG_REFERENCE,
  CONFIG_SOURCE,
  ConfigReferenceError,
  describeSettings,
  renderConfigReference,
} from './config-reference';

const root = resolve(__dirname, '..');
const source = readFileSync(resolve(root, CONFIG_SOURCE), 'utf8');

describe('the configuration reference (docs/configuration.md)', () => {
  it('is committed as `npm run docs:config` writes it', async () => {
    const committed = readFileSync(resolve(root, CONFIG_REFERENCE), 'utf8');
    const written = await renderConfigReference(source, root);
    expect(
      committed === written
        ? 'up to date'
        : `${CONFIG_REFERENCE} differs from what the script writes: run \`npm run docs:config\` and commit it`,
    ).toBe('up to date');
  });

  it('names every setting the service reads, in its order, with the default it really has', () => {
    const settings = describeSettings(source);
    const defaults = new AppConfig() as unknown as Record<
      string,
      string | number | boolean | undefined
    >;
    expect(settings.map((s) => s.name)).toEqual(Object.keys(defaults));
    for (const { name, defaultValue } of settings) {
      const actual = defaults[name];
      expect([name, defaultValue]).toEqual([
        name,
        actual === undefined ? undefined : String(actual),
      ]);
    }
  });

  it('states the bounds that validation enforces, each number in and just out of them', () => {
    const bounded = describeSettings(source).filter((s) => s.min !== undefined);
    expect(bounded.length).toBeGreaterThan(10);
    for (const { name, min, max } of bounded) {
      expect(() => loadConfig({ [name]: String(min) })).not.toThrow();
      expect(() => loadConfig({ [name]: String(min! - 1) })).toThrow(InvalidConfigError);
      if (max === undefined) continue;
      expect(() => loadConfig({ [name]: String(max) })).not.toThrow();
      expect(() => loadConfig({ [name]: String(max + 1) })).toThrow(InvalidConfigError);
    }
  });

  it('lists the `_FILE` form of each secret, which the service reads', async () => {
    const secrets = describeSettings(source).filter((s) => s.secret);
    expect(secrets.map((s) => s.name)).toContain('DATABASE_URL');
    const dir = mkdtempSync(join(tmpdir(), 'config-reference-'));
    try {
      const file = join(dir, 'secret');
      writeFileSync(file, 'postgres://app:secret@db:5432/tributary\n');
      expect(loadConfig({ DATABASE_URL_FILE: file }).DATABASE_URL).toBe(
        'postgres://app:secret@db:5432/tributary',
      );
      const reference = await renderConfigReference(source, root);
      for (const { name } of secrets) expect(reference).toContain(`\`${name}_FILE\``);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('describeSettings', () => {
  const configOf = (members: string) => `
    const LEVELS = ['low', 'high'] as const;
    export class AppConfig {
      ${members}
    }`;

  it('reads defaults, bounds, lists and messages from the decorators', () => {
    const settings = describeSettings(
      configOf(`
        /**
         * Bytes held.
         * @group Sizes
         */
        @IsInt() @Min(64 * 1024) @Max(1_000 * 1_000) SIZE = 2 * 1024;
        /** A level. @group Sizes */
        @IsIn(LEVELS) LEVEL: string = 'low';
        /** A URL. @group Other */
        @IsOptional() @Matches(/^x:/, { message: 'URL must be an x: address' }) URL?: string;
        /** On or off. @group Other */
        @IsBoolean() ON = false;`),
    );
    expect(settings).toEqual([
      expect.objectContaining({
        name: 'SIZE',
        group: 'Sizes',
        defaultValue: '2048',
        accepts: 'a whole number from 65536 to 1000000',
        description: 'Bytes held.',
      }),
      expect.objectContaining({ name: 'LEVEL', accepts: 'one of `low`, `high`' }),
      expect.objectContaining({ name: 'URL', defaultValue: undefined, accepts: 'an x: address' }),
      expect.objectContaining({ name: 'ON', defaultValue: 'false', accepts: '`true` or `false`' }),
    ]);
  });

  it.each([
    ['@IsInt() UNSAID = 1;', /UNSAID has no doc comment/],
    ['/** Said, ungrouped. */ @IsInt() LOOSE = 1;', /LOOSE has no @group tag/],
    [
      "/** A path. @group G */ @Matches(/^a/) PATTERN = 'a';",
      /PATTERN: @Matches needs a message "PATTERN must be \.\.\."/,
    ],
    ['/** Now. @group G */ @IsInt() CLOCK = Date.now();', /CLOCK: its default is not a value/],
  ])('refuses a setting it cannot document: %s', (member, problem) => {
    expect(() => describeSettings(configOf(member))).toThrow(ConfigReferenceError);
    expect(() => describeSettings(configOf(member))).toThrow(problem);
  });

  it('needs the class AppConfig', () => {
    expect(() => describeSettings('export class Other {}')).toThrow(/declares no class AppConfig/);
  });
});
