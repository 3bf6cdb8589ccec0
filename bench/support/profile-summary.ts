import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The parts of a V8 `.cpuprofile` this summary reads. */
interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string };
    children?: number[];
  }[];
  samples: number[];
  timeDeltas: number[];
}

/** Who a function belongs to: an npm package, the service's own code, or Node and V8. */
function ownerOf(url: string, functionName: string): string {
  const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  // The service's build, the floors, and the service's pure code the floors run from source.
  if (/\/(dist\/src|bench\/floor|src)\//.test(url)) return '(own code)';
  if (url.startsWith('node:')) return url;
  return url || functionName;
}

/**
 * Where a process spent its CPU: self time by owner, idle time and start-up (module loading)
 * left out, as shares of the rest. Answers "what dominates the cost" for `--profile` runs.
 */
export function summarizeProfile(file: string, top = 15): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  profile.nodes.forEach((node) => node.children?.forEach((child) => parent.set(child, node.id)));
  const startingUp = (id: number): boolean => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const { url, functionName } = nodes.get(at)!.callFrame;
      if (url === 'node:internal/main/run_main_module' || functionName === 'Module._load') {
        return true;
      }
    }
    return false;
  };
  const byOwner = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, micros: number) =>
    map.set(key, (map.get(key) ?? 0) + micros);
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const { functionName, url } = nodes.get(id)!.callFrame;
    if (functionName === '(idle)' || startingUp(id)) return;
    const micros = profile.timeDeltas[i] ?? 0;
    busy += micros;
    const owner = ownerOf(url, functionName);
    add(byOwner, owner, micros);
    add(byFunction, `${functionName || '(anonymous)'} (${owner})`, micros);
  });
  const share = (entries: Map<string, number>) =>
    [...entries]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([what, micros]) => `  ${((100 * micros) / busy).toFixed(1).padStart(5)}%  ${what}`);
  return [
    `${(busy / 1e6).toFixed(1)} s of CPU, self time by owner:`,
    ...share(byOwner),
    'self time by function:',
    ...share(byFunction),
  ].join('\n');
}

/** The summary of every profile in `dir`. */
export function summarizeProfiles(dir: string): string {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => summarizeProfile(join(dir, name)))
    .join('\n');
}
