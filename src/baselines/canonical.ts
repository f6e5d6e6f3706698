import type { Baseline, BaselineCase } from './schema.ts'

/**
 * The baseline in its one written form: keys in file order, cases sorted by id, tags sorted and unique, judge
 * spec hashes sorted by name. Same content, same bytes, so diffs show only real changes.
 */
export function canonicalBaseline(baseline: Baseline): Baseline {
  return {
    schemaVersion: baseline.schemaVersion,
    suite: baseline.suite,
    createdAt: baseline.createdAt,
    ...(baseline.git && {
      git: {
        ...(baseline.git.commit !== undefined && { commit: baseline.git.commit }),
        ...(baseline.git.branch !== undefined && { branch: baseline.git.branch }),
      },
    }),
    targetId: baseline.targetId,
    modelId: baseline.modelId,
    judgeModel: baseline.judgeModel,
    judgeSpecHashes: Object.fromEntries(
      Object.entries(baseline.judgeSpecHashes).sort(([a], [b]) => byCodeUnits(a, b)),
    ),
    cases: [...baseline.cases].sort((a, b) => byCodeUnits(a.id, b.id)).map(canonicalCase),
  }
}

/**
 * The baseline file's text: canonical, two-space indented, tag lists on one line, with a final newline. This is
 * also the form Prettier gives JSON, so a committed baseline passes `prettier --check` unchanged.
 */
export function serializeBaseline(baseline: Baseline): string {
  return `${JSON.stringify(canonicalBaseline(baseline), null, 2).replace(STRING_LIST, inlineList)}\n`
}

const STRING_LIST = /^( *)("[^"\n]+": )\[\n((?: *"(?:[^"\\\n]|\\.)*",?\n)+) *\]/gm

function inlineList(whole: string, indent: string, key: string, items: string): string {
  const inline = `${indent}${key}[${items.trim().split(/\n */).join(' ')}]`
  return inline.length <= 80 ? inline : whole
}

function canonicalCase(entry: BaselineCase): BaselineCase {
  return {
    id: entry.id,
    inputHash: entry.inputHash,
    tags: [...new Set(entry.tags)].sort(byCodeUnits),
    status: entry.status,
    passes: entry.passes,
    trials: entry.trials,
    ...(entry.score !== undefined && { score: entry.score }),
    latencyMs: entry.latencyMs,
    costUsd: entry.costUsd,
  }
}

// code-unit order, not localeCompare, so the file is the same on every machine
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
