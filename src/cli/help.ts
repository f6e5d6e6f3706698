import type { FlagTable } from './flag-table.ts'

/** The exit codes of `evals run` and `evals merge`, as their help shows them. */
export const EXIT_CODES = `Exit codes: 0 all passed (gate warnings included); 1 the gate failed, or a case failed (with the default
\`--fail-on failure\`; \`expect_fail\` cases aside); 2 the run could not happen, or cases only errored — an
infrastructure failure (target crashed or timed out, a check threw, a broken baseline), not a quality failure;
130 interrupted. The \`Outcome\` line says which happened.
`

export const HELP = (
  version: string,
): string => `evals ${version} — evaluation and regression testing for LLM agents

Usage
  evals run <cases.yaml|glob…> [options]   run case files and print a summary
  evals compare <run> <baseline.json|run>  compare a finished run with a baseline or another run; apply the gate
  evals baseline show <baseline.json>      print a baseline file
  evals plan <cases.yaml…> [--drop 5]      how many trials the gate needs to see a drop, before spending money
  evals report <report.json> [options]     re-render JUnit, HTML or Markdown from a JSON report
  evals merge <run-dir…> [--out <dir>]     join the runs of \`--shard i/n\` into one run and report
  evals schema                             print the JSON Schema of case files
  evals init [--yes] [--dir <dir>]         scaffold an agent, cases, a check, a baseline and CI in this project
  evals view [reports-dir…] [--open]       browse runs, trends and comparisons in a local web app
  evals --version                          print the version

Run \`evals run --help\` for the options of \`run\`.
${EXIT_CODES}`

/** A command's `--help`: usage and prose, its flags, then the footer (e.g. the exit codes). */
export function formatHelp(usage: string, flags: FlagTable, footer?: string): string {
  return `${usage}\n\n${formatFlags(flags)}\n${footer === undefined ? '' : `\n${footer}`}`
}

/** The flags of a table as `--help` lists them: grouped under their sections, descriptions in one column. */
function formatFlags(table: FlagTable): string {
  const lines: string[] = []
  let section: string | undefined
  for (const [name, spec] of Object.entries(table)) {
    const heading = spec.section ?? 'Options'
    if (heading !== section) lines.push(...(section === undefined ? [] : ['']), heading)
    section = heading
    const label = `${spec.short === undefined ? '' : `-${spec.short}, `}--${name}${spec.value === undefined ? '' : ` ${spec.value}`}`
    const [first, ...more] = typeof spec.description === 'string' ? [spec.description] : spec.description
    lines.push(
      `  ${label.padEnd(LABEL_WIDTH)}  ${first ?? ''}`,
      ...more.map((line) => `${' '.repeat(LABEL_WIDTH + 4)}${line}`),
    )
  }
  return lines.join('\n')
}

const LABEL_WIDTH = 25
