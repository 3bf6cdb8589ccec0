/** The media type of a document as typed or uploaded: JSON if it parses as an object, else YAML. */
export function documentMediaType(text: string): 'application/json' | 'application/yaml' {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return 'application/yaml';
  try {
    JSON.parse(trimmed);
    return 'application/json';
  } catch {
    // Not JSON after all (YAML flow style, or a mistake the API will name).
    return 'application/yaml';
  }
}

/** A value of a plan's diff as it reads in a cell: absent, or compact JSON. */
export function diffValue(value: unknown): string {
  return value === undefined ? '(none)' : JSON.stringify(value);
}

/** How each action of a plan is marked, diff-style. */
export const ACTION_MARKS: Record<string, string> = {
  create: '+',
  delete: '−',
  update: '~',
  unchanged: '=',
};

/** A change's kind in words (the API's are identifiers). */
export function kindWords(kind: string): string {
  return KIND_WORDS[kind] ?? kind;
}

const KIND_WORDS: Record<string, string> = {
  scope: 'scope',
  scopePolicy: 'scope policy',
  stream: 'stream',
  readerGroup: 'reader group',
};

/** A rule of a scope's policy a plan breaks, as one line: what it concerns, the rule, why. */
export function violationWords(violation: {
  rule: string;
  detail: string;
  resource?: string;
}): string {
  const about = violation.resource ? `${violation.resource}: ` : '';
  return `${about}${violation.rule}: ${violation.detail}`;
}
