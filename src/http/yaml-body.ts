import type { CST, Document, Node as YamlNode, YAMLMap, YAMLSeq } from 'yaml';
import { InvalidRequestError, MalformedBodyError } from '../common/domain-error';
import { DtoClass, ListCap, listCapOf } from '../common/list-caps';
import { yaml } from '../common/required-on-first-use';
import { MAX_BODY_DEPTH, MAX_LIST_ENTRIES, MAX_YAML_ALIASES } from './body-limits';

/*
 * A YAML document read into what JSON could say, bounded as a JSON body is: no deeper than
 * MAX_BODY_DEPTH, and, its aliases expanded, no larger than the byte limit of its route
 * (docs/extensions.md section 5). An alias costs nothing to write and is a whole copy of its
 * node once read: 100 aliases of a list of 20,000 tags are two million tags. So the document's
 * tree is measured, each anchored node once, before any value is made of it.
 */

/** What one node of the document is, read. */
interface Read {
  value: unknown;
  /** The bytes its value would take as JSON (about: each string counted without escapes). */
  bytes: number;
  /** How many levels of lists and mappings it nests (0 for a scalar). */
  height: number;
}

const malformed = (detail: string) => new MalformedBodyError(`The request body ${detail}`);
const tooDeep = () => malformed(`nests deeper than ${MAX_BODY_DEPTH} levels`);

const lineAt = (text: string, offset: number): number => {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
};

type Collection = CST.BlockMap | CST.BlockSequence | CST.FlowCollection;

const isCollection = (token: CST.Token): token is Collection =>
  token.type === 'block-map' || token.type === 'block-seq' || token.type === 'flow-collection';

const isMapping = (token: Collection): boolean =>
  token.type === 'block-map' || (token.type === 'flow-collection' && token.start.source === '{');

/** What is known of a collection being read: where it is, and what it may hold. */
interface Place {
  path: string;
  /** The DTO of a mapping here, when it is known. */
  dto?: DtoClass;
  /** The maximum of a list here, when its DTO declares one. */
  cap?: ListCap;
}

/**
 * Refuses a document while it is read, as soon as it nests deeper than MAX_BODY_DEPTH or a list
 * grows past its maximum: the maximum its place in `shape` (the route's DTO) declares
 * (`scopes[0].streams[1].streamTags`: 1,000), else MAX_LIST_ENTRIES. The parser's cost grows
 * with what it reads, so a document that crosses a bound is read no further than that bound.
 */
class SyntaxGuard {
  private readonly places = new WeakMap<CST.Token, Place>();

  constructor(
    private readonly text: string,
    private readonly shape?: DtoClass,
  ) {}

  /** Checks what the parser holds open: the document, each collection, the scalar being read. */
  check(stack: readonly CST.Token[]): void {
    if (stack.length > MAX_BODY_DEPTH + 2) throw tooDeep();
    // Only the innermost collection grows (the last entry may be a scalar of it).
    for (let i = Math.max(1, stack.length - 2); i < stack.length; i++) {
      const token = stack[i];
      if (!isCollection(token)) continue;
      const place = this.placeOf(stack, i);
      if (token.items.length > (place.cap?.max ?? MAX_LIST_ENTRIES)) {
        if (place.cap) throw InvalidRequestError.of(place.path, place.cap.message);
        throw malformed(
          `has a list or mapping of more than ${MAX_LIST_ENTRIES} entries ` +
            `(line ${lineAt(this.text, token.offset)})`,
        );
      }
    }
  }

  /** The place of the collection at `stack[i]`, found once from its parent's. */
  private placeOf(stack: readonly CST.Token[], i: number): Place {
    const token = stack[i] as Collection;
    let place = this.places.get(token);
    if (place) return place;
    const parent = stack[i - 1];
    if (!isCollection(parent)) {
      place = { path: '', dto: this.shape };
    } else {
      const above = this.placeOf(stack, i - 1);
      if (isMapping(parent)) {
        const keyToken = parent.items.at(-1)?.key;
        const key = keyToken ? yaml().CST.resolveAsScalar(keyToken)?.value : undefined;
        const path = above.path ? `${above.path}.${key ?? '?'}` : (key ?? '?');
        const cap = above.dto && key !== undefined ? listCapOf(above.dto, key) : undefined;
        place = { path, cap: isMapping(token) ? undefined : cap };
      } else {
        const index = Math.max(0, parent.items.length - 1);
        place = { path: `${above.path}[${index}]`, dto: above.cap?.element?.() };
      }
    }
    this.places.set(token, place);
    return place;
  }
}

/** The syntax tree of `text`, read under the guard of {@link SyntaxGuard}. */
function* guardedSyntax(text: string, shape?: DtoClass): Generator<CST.Token> {
  const { Lexer, Parser } = yaml();
  const parser = new Parser();
  const guard = new SyntaxGuard(text, shape);
  for (const lexeme of new Lexer().lex(text)) {
    yield* parser.next(lexeme);
    guard.check(parser.stack);
  }
  yield* parser.end();
}

/** Reads a composed document into plain values, measuring as it goes. */
class DocumentReader {
  /** The node each anchor names at this point of the document (the last one before it). */
  private readonly anchors = new Map<string, YamlNode>();
  /** Anchored nodes read so far: an alias of one costs a look-up, not another reading. */
  private readonly read = new Map<YamlNode, Read>();
  private aliases = 0;

  constructor(private readonly maxBytes: number) {}

  node(node: YamlNode | null, depth: number): Read {
    if (node === null) return { value: null, bytes: 4, height: 0 };
    const { isAlias, isMap, isSeq } = yaml();
    if (isAlias(node)) return this.alias(node.source, depth);
    if (node.anchor) this.anchors.set(node.anchor, node);
    const read = isMap(node) || isSeq(node) ? this.collection(node, depth) : this.scalar(node);
    if (node.anchor) this.read.set(node, read);
    return read;
  }

  private scalar(node: YamlNode): Read {
    const value: unknown = yaml().isScalar(node) ? node.value : null;
    const bytes = typeof value === 'string' ? value.length + 2 : String(value).length;
    return { value, bytes, height: 0 };
  }

  private alias(source: string, depth: number): Read {
    if (++this.aliases > MAX_YAML_ALIASES) {
      throw malformed(`uses more than ${MAX_YAML_ALIASES} aliases`);
    }
    const target = this.anchors.get(source);
    if (target === undefined) {
      throw malformed(`uses an alias with no anchor before it (*${source})`);
    }
    const read = this.read.get(target);
    // Not read yet: the alias is inside the node it names, which would hold itself without end.
    if (read === undefined) throw malformed(`uses an alias inside its own anchor (*${source})`);
    this.assertFits(read, depth);
    return read;
  }

  private collection(node: YAMLMap | YAMLSeq, depth: number): Read {
    if (depth > MAX_BODY_DEPTH) throw tooDeep();
    if (node.items.length > MAX_LIST_ENTRIES) {
      throw malformed(`has a list or mapping of more than ${MAX_LIST_ENTRIES} entries`);
    }
    let bytes = 2 + Math.max(0, node.items.length - 1);
    let height = 0;
    const add = (read: Read): unknown => {
      bytes += read.bytes;
      height = Math.max(height, read.height);
      return read.value;
    };
    let value: unknown;
    if (yaml().isSeq(node)) {
      value = node.items.map((item) => add(this.node(item as YamlNode | null, depth + 1)));
    } else {
      const object: Record<string, unknown> = {};
      for (const pair of node.items) {
        const key = this.key(pair.key as YamlNode | null, depth);
        bytes += key.length + 3;
        const item = add(this.node(pair.value as YamlNode | null, depth + 1));
        // As JSON.parse does: `__proto__` is a field like any other, not the object's prototype.
        if (key === '__proto__') {
          Object.defineProperty(object, key, { value: item, enumerable: true, writable: true });
        } else object[key] = item;
      }
      value = object;
    }
    const read = { value, bytes, height: height + 1 };
    this.assertFits(read, depth);
    return read;
  }

  /** A mapping's key as JSON has it: a string (a number or a boolean written as one). */
  private key(node: YamlNode | null, depth: number): string {
    const { value } = this.node(node, depth + 1);
    if (value === null) return '';
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    throw malformed('has a mapping key that is not a scalar');
  }

  /** A node read at `depth` must keep the document within its depth and its size once expanded. */
  private assertFits(read: Read, depth: number): void {
    if (depth + read.height - 1 > MAX_BODY_DEPTH) throw tooDeep();
    if (read.bytes > this.maxBytes) {
      throw malformed(`expands to more than ${this.maxBytes} bytes`);
    }
  }
}

/**
 * Reads `text` as one YAML document (core schema, so it says only what JSON can; duplicate keys
 * refused) into plain values, refused with 400 when it is not valid YAML, nests deeper than
 * MAX_BODY_DEPTH, holds a list longer than its maximum in `shape` (the DTO of the route; naming
 * it) or a list or mapping of more than MAX_LIST_ENTRIES entries, uses more than
 * MAX_YAML_ALIASES aliases, or would take more than `maxBytes` as JSON once its aliases are
 * expanded. An alias's value is the very value of its anchor, as YAML means it.
 */
export function readYamlBody(text: string, maxBytes: number, shape?: DtoClass): unknown {
  const documents: Document.Parsed[] = [];
  for (const document of new (yaml().Composer)({ uniqueKeys: true }).compose(
    guardedSyntax(text, shape),
    true,
    text.length,
  )) {
    documents.push(document);
    if (documents.length > 1) throw malformed('must be one YAML document');
  }
  const [document] = documents;
  if (document.errors.length > 0) throw malformed('is not valid YAML');
  return new DocumentReader(maxBytes).node(document.contents, 1).value;
}
