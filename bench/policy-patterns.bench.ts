/**
 * What a scope policy's name pattern costs to match (docs/extensions.md section 10): the worst
 * cases of 250-character patterns against 250-character names, against the baseline of the same
 * pattern without wildcards (a plain comparison of the same lengths), measured in the same run.
 * The matcher runs in the service's process for every create or PUT in a scope with patterns;
 * this is its CPU alone, with no request around it.
 *
 *   npm run bench:policies
 *
 * Prints µs per match for each case and one `ratio:` line per case against the baseline.
 */
import { cpuUsage } from 'node:process';
import { NamePattern } from '../src/policies/name-pattern';

const LENGTH = 250;
const ROUNDS = 5;
/** Matches per round: enough for a round to last a good fraction of a second. */
const MATCHES = 20_000;

interface Case {
  name: string;
  pattern: string;
  text: string;
}

const a = (n: number) => 'a'.repeat(n);

const CASES: Case[] = [
  { name: 'literal (baseline)', pattern: a(LENGTH), text: a(LENGTH) },
  // A backtracking engine's nightmare: every star could take any run of a's, and the b never comes.
  { name: 'stars and a missing last piece', pattern: `${'a*'.repeat(124)}b`, text: a(LENGTH) },
  // Each middle piece is long and fails late at every place of the name.
  {
    name: 'long middle piece failing late',
    pattern: `*${a(124)}b*`,
    text: a(LENGTH),
  },
  { name: 'question marks', pattern: '?'.repeat(LENGTH), text: a(LENGTH) },
  { name: 'a typical prefix pattern', pattern: 'payments-*', text: `payments-${a(LENGTH - 9)}` },
];

/** CPU µs per match of one case, the median of the rounds. */
function measure({ pattern, text }: Case): { µs: number; matched: boolean } {
  const compiled = new NamePattern(pattern);
  let matched = false;
  const rounds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = cpuUsage();
    for (let i = 0; i < MATCHES; i++) matched = compiled.matches(text);
    const used = cpuUsage(start);
    rounds.push((used.user + used.system) / MATCHES);
  }
  rounds.sort((x, y) => x - y);
  return { µs: rounds[Math.floor(ROUNDS / 2)], matched };
}

// One pass first, so that every case is compiled when measured.
CASES.forEach(measure);
const results = CASES.map((c) => ({ ...c, ...measure(c) }));
const baseline = results[0].µs;
for (const { name, pattern, text, µs, matched } of results) {
  console.log(
    `${name}: ${µs.toFixed(2)} µs CPU per match (pattern ${pattern.length}, name ${text.length} characters, ${matched ? 'matches' : 'no match'})`,
  );
}
for (const { name, µs } of results.slice(1)) {
  console.log(`ratio: ${name} / literal ${(µs / baseline).toFixed(1)}`);
}
