/**
 * Words of PromQL that stand where a metric name could, but are none: binary operators and
 * modifiers, and the aggregations (`sum by (job) (...)`: `sum` is followed by `by`, not `(`).
 */
const NOT_NAMES = new Set([
  'and',
  'or',
  'unless',
  'bool',
  'offset',
  'atan2',
  'inf',
  'nan',
  'sum',
  'min',
  'max',
  'avg',
  'group',
  'stddev',
  'stdvar',
  'count',
  'count_values',
  'bottomk',
  'topk',
  'quantile',
]);

/**
 * The metric names an expression selects, read from its text: identifiers standing as series
 * selectors (alone, or before `{`), once what cannot hold one is taken out: strings, label
 * matchers, ranges, the label lists of `by`, `without`, `on`, `ignoring` and `group_left`, and
 * function calls (an identifier before `(`). Numbers and durations start with a digit.
 */
export function metricNames(expr: string): string[] {
  const text = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""')
    .replace(/\{[^}]*\}/g, '{}')
    .replace(/\[[^\]]*\]/g, '[]')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = [...text.matchAll(/(?<![\w:.])[a-zA-Z_:][\w:]*(?![\w:]|\s*\()/g)]
    .map(([name]) => name)
    .filter((name) => !NOT_NAMES.has(name.toLowerCase()));
  return [...new Set(names)];
}

/**
 * An expression of the dashboard with Grafana's variables filled in (`$job`, `${job}`,
 * `$__rate_interval`); a variable `values` does not name is an error, not left in.
 */
export function withVariables(expr: string, values: Record<string, string>): string {
  return expr.replace(
    /\$\{(\w+)(?::\w+)?\}|\$(\w+)/g,
    (variable, braced?: string, bare?: string) => {
      const name = (braced ?? bare)!;
      if (!Object.hasOwn(values, name)) throw new Error(`no value for ${variable} in ${expr}`);
      return values[name];
    },
  );
}
