/**
 * Writes docs/configuration.md from `AppConfig` (src/config/app-config.ts): each setting's name,
 * default, what it accepts (from its class-validator decorators) and its doc comment, grouped by
 * the doc comment's `@group` tag. The reference is never edited by hand: `npm run docs:config`
 * writes it, and a unit test (config-reference.spec.ts) fails while the committed copy differs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as prettier from 'prettier';
import ts from 'typescript';

export const CONFIG_SOURCE = 'src/config/app-config.ts';
export const CONFIG_REFERENCE = 'docs/configuration.md';

/** One setting as the reference shows it. */
export interface SettingDoc {
  name: string;
  group: string;
  /** The default as the environment would spell it; undefined when the setting is unset. */
  defaultValue?: string;
  /** What the setting accepts, in words (`true` or `false`, a whole number from 1 to 10). */
  accepts: string;
  description: string;
  /** Bounds of a whole number, for the test that checks them against validation. */
  min?: number;
  max?: number;
  /** May also be given as `<NAME>_FILE` (a secret). */
  secret: boolean;
}

/** A problem of the source that the reference cannot be written without; names the setting. */
export class ConfigReferenceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigReferenceError';
  }
}

type Constants = Map<string, ts.Expression>;
type Value = string | number | boolean | Value[] | undefined;

/** The value of a constant expression of the file: literals, `*`, `+`, `-`, arrays, consts. */
function evaluate(node: ts.Expression, constants: Constants): Value {
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (ts.isStringLiteralLike(node)) return node.text;
  if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node)) {
    return evaluate(node.expression, constants);
  }
  if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken) {
    return -Number(evaluate(node.operand, constants));
  }
  if (ts.isArrayLiteralExpression(node)) return node.elements.map((e) => evaluate(e, constants));
  if (ts.isIdentifier(node) && constants.has(node.text)) {
    return evaluate(constants.get(node.text)!, constants);
  }
  if (ts.isBinaryExpression(node)) {
    const left = Number(evaluate(node.left, constants));
    const right = Number(evaluate(node.right, constants));
    switch (node.operatorToken.kind) {
      case ts.SyntaxKind.AsteriskToken:
        return left * right;
      case ts.SyntaxKind.PlusToken:
        return left + right;
      case ts.SyntaxKind.MinusToken:
        return left - right;
    }
  }
  return undefined;
}

/** The file's top-level `const NAME = <expression>` declarations. */
function constantsOf(file: ts.SourceFile): Constants {
  const constants: Constants = new Map();
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      if (ts.isIdentifier(declaration.name) && declaration.initializer) {
        constants.set(declaration.name.text, declaration.initializer);
      }
    }
  }
  return constants;
}

interface Decorator {
  name: string;
  args: readonly ts.Expression[];
}

function decoratorsOf(member: ts.PropertyDeclaration): Decorator[] {
  return (ts.getDecorators(member) ?? []).flatMap((decorator) => {
    const call = decorator.expression;
    if (!ts.isCallExpression(call) || !ts.isIdentifier(call.expression)) return [];
    return [{ name: call.expression.text, args: call.arguments }];
  });
}

/** The `message` of a decorator's options, without the setting's name before "must be". */
function messageOf(decorator: Decorator, name: string): string | undefined {
  const options = decorator.args.find(ts.isObjectLiteralExpression);
  const message = options?.properties.find(
    (p): p is ts.PropertyAssignment =>
      ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === 'message',
  )?.initializer;
  if (message === undefined || !ts.isStringLiteralLike(message)) return undefined;
  const prefix = `${name} must be `;
  return message.text.startsWith(prefix) ? message.text.slice(prefix.length) : undefined;
}

const code = (value: unknown): string => `\`${String(value)}\``;

/** What the decorators let through, in words, and a whole number's bounds. */
function acceptsOf(
  name: string,
  decorators: Decorator[],
  constants: Constants,
): Pick<SettingDoc, 'accepts' | 'min' | 'max'> {
  const find = (wanted: string) => decorators.find((d) => d.name === wanted);
  const bound = (wanted: string) => {
    const decorator = find(wanted);
    return decorator && Number(evaluate(decorator.args[0], constants));
  };
  if (find('IsBoolean')) return { accepts: '`true` or `false`' };
  if (find('IsInt')) {
    const min = bound('Min');
    const max = bound('Max');
    if (min !== undefined && max !== undefined) {
      return { accepts: `a whole number from ${min} to ${max}`, min, max };
    }
    if (min !== undefined) return { accepts: `a whole number, at least ${min}`, min };
    return { accepts: 'a whole number' };
  }
  const isIn = find('IsIn');
  if (isIn) {
    const values = evaluate(isIn.args[0], constants);
    if (!Array.isArray(values)) {
      throw new ConfigReferenceError(`${name}: @IsIn needs a list the script can read`);
    }
    return { accepts: `one of ${values.map(code).join(', ')}` };
  }
  const matches = find('Matches');
  if (matches) {
    const message = messageOf(matches, name);
    if (message === undefined) {
      throw new ConfigReferenceError(
        `${name}: @Matches needs a message "${name} must be ..." to say what it accepts`,
      );
    }
    return { accepts: message };
  }
  return { accepts: find('IsNotEmpty') ? 'text, not empty' : 'text' };
}

/** A doc comment's text on one line, and its `@group`. */
function docOf(member: ts.PropertyDeclaration): { description: string; group?: string } {
  const docs = ts.getJSDocCommentsAndTags(member).filter(ts.isJSDoc);
  const doc = docs.at(-1);
  const description = ts.getTextOfJSDocComment(doc?.comment)?.replace(/\s+/g, ' ').trim() ?? '';
  const groupTag = doc?.tags?.find((tag) => tag.tagName.text === 'group');
  const group = groupTag && ts.getTextOfJSDocComment(groupTag.comment)?.trim();
  return { description, group: group || undefined };
}

/** Every setting of `AppConfig` in the given source text, in the order the class declares them. */
export function describeSettings(sourceText: string): SettingDoc[] {
  const file = ts.createSourceFile(CONFIG_SOURCE, sourceText, ts.ScriptTarget.Latest, true);
  const constants = constantsOf(file);
  const secretList = constants.get('SECRET_SETTINGS');
  const secrets = secretList ? evaluate(secretList, constants) : [];
  const appConfig = file.statements.find(
    (s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === 'AppConfig',
  );
  if (!appConfig) throw new ConfigReferenceError(`${CONFIG_SOURCE} declares no class AppConfig`);
  return appConfig.members.filter(ts.isPropertyDeclaration).map((member) => {
    const name = member.name.getText(file);
    const { description, group } = docOf(member);
    if (description === '') {
      throw new ConfigReferenceError(`${name} has no doc comment: say what it is for`);
    }
    if (group === undefined) {
      throw new ConfigReferenceError(`${name} has no @group tag in its doc comment`);
    }
    const initial = member.initializer && evaluate(member.initializer, constants);
    if (member.initializer && initial === undefined) {
      throw new ConfigReferenceError(`${name}: its default is not a value the script can read`);
    }
    return {
      name,
      group,
      defaultValue: initial === undefined ? undefined : String(initial),
      ...acceptsOf(name, decoratorsOf(member), constants),
      description,
      secret: Array.isArray(secrets) && secrets.includes(name),
    };
  });
}

/** A table cell: one line, no column break. */
const cell = (text: string): string => text.replace(/\|/g, '\\|');

/** `docs/x.md` named in a doc comment, as a link from the reference (which is in docs/). */
const linkDocs = (text: string): string =>
  text.replace(/\bdocs\/([\w-]+\.md)\b/g, (path: string, file: string) => `[${path}](${file})`);

function row(setting: SettingDoc): string[] {
  const main = [
    code(setting.name),
    setting.defaultValue === undefined ? '_(unset)_' : code(setting.defaultValue),
    setting.accepts,
    linkDocs(setting.description),
  ];
  const rows = [`| ${main.map(cell).join(' | ')} |`];
  if (setting.secret) {
    const file = [
      code(`${setting.name}_FILE`),
      '_(unset)_',
      'a path',
      `A file whose content, trimmed, is ${setting.name} (a Docker or Kubernetes secret); not with ${setting.name}.`,
    ];
    rows.push(`| ${file.map(cell).join(' | ')} |`);
  }
  return rows;
}

const INTRO = `# Configuration reference

<!-- Generated by \`npm run docs:config\` from ${CONFIG_SOURCE}: edit the doc comments there, not this file. -->

Every setting is an environment variable, read once at start and validated: a value it does not
accept stops the service with one line naming the setting (\`Invalid configuration: ...\`), and
several problems are listed one per line. A setting that holds a secret may be given as a file
instead, \`<NAME>_FILE\`, as Docker secrets and Kubernetes secret volumes hand them over (see
[deployment](deployment.md#secrets-from-files)). Durations are in the unit their name ends with
(\`_MS\`, \`_S\`, \`_HOURS\`, \`_DAYS\`), sizes in bytes or MiB (\`_MB\`).
`;

/** The reference's Markdown, formatted as the repository's Prettier settings format it. */
export async function renderConfigReference(sourceText: string, root: string): Promise<string> {
  const settings = describeSettings(sourceText);
  const groups = [...new Set(settings.map((s) => s.group))];
  const sections = groups.map((group) =>
    [
      `## ${group}`,
      '',
      '| Setting | Default | Accepts | What it does |',
      '| --- | --- | --- | --- |',
      ...settings.filter((s) => s.group === group).flatMap(row),
    ].join('\n'),
  );
  const markdown = [INTRO, ...sections].join('\n\n') + '\n';
  const options = await prettier.resolveConfig(resolve(root, CONFIG_REFERENCE));
  return prettier.format(markdown, { ...options, parser: 'markdown' });
}

async function main(): Promise<void> {
  const root = resolve(__dirname, '..');
  const source = readFileSync(resolve(root, CONFIG_SOURCE), 'utf8');
  writeFileSync(resolve(root, CONFIG_REFERENCE), await renderConfigReference(source, root));
  process.stdout.write(`wrote ${CONFIG_REFERENCE}\n`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
