import type { Config } from 'jest';
import { resolve } from 'node:path';
import base from '../jest.config';

type Project = Exclude<NonNullable<Config['projects']>[number], string>;
const e2e = (base.projects as Project[]).find((project) => project.displayName === 'e2e')!;
const root = resolve(__dirname, '..');

/**
 * A configuration of one project: the e2e project of `jest.config.ts` (its transform, setup and
 * time limits) under another name, with `project` changing what it runs and how.
 */
export function e2eVariant(displayName: string, project: Partial<Project>): Config {
  return {
    rootDir: root,
    reporters: base.reporters,
    testTimeout: base.testTimeout,
    projects: [{ ...e2e, rootDir: root, displayName, ...project }],
  };
}
