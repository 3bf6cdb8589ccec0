import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { CliError, Exit, usageError } from './exit-codes';

/**
 * The document in FILE (`-` for stdin), YAML or JSON (JSON is YAML too): what `apply` and
 * `scopes set-policy` send. The service validates its shape.
 */
export function readDocument<T>(file: string): T {
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    throw usageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return parse(text) as T;
  } catch (error) {
    throw new CliError(
      `${file} is neither YAML nor JSON: ${(error as Error).message}`,
      Exit.invalid,
    );
  }
}
