export const HELP = (
  version: string,
): string => `evals ${version} — evaluation and regression testing for LLM agents

Usage
  evals run <cases.yaml|glob…> [options]   run case files and print a summary
  evals schema                             print the JSON Schema of case files
  evals --version                          print the version

Run \`evals run --help\` for the options of \`run\`.
Exit codes: 0 all passed, 1 a case failed or errored, 2 the run could not happen, 130 interrupted.
`

export const RUN_HELP = `Usage: evals run <cases.yaml|glob…> [options]

Options
  --model <provider:model>   model for agent targets; overrides the files' \`model:\` (e.g. openai:gpt-4.1-mini)
  --concurrency <n>          case runs at once (default 4)
  --filter <pattern>         only case ids matching; \`*\` is a wildcard, otherwise a substring
  --tag <tag>                only cases with this tag; repeat for any of several
  --trials <n>               runs per case; overrides the files' \`trials:\`
  --timeout <ms>             per-case limit on target plus checks (default 60000)
  --bail                     stop starting cases after the first failed or errored one
  --out <dir>                where \`<run-id>/results.jsonl\` and \`summary.json\` go (default reports)
  --record                   call models live and save every call to \`__cassettes__/<suite>.jsonl\` beside the suite
  --replay [auto]            serve model calls from the cassette, no API key needed; a miss makes the case errored
                             with a diff; \`auto\` calls and records the misses
  --no-color                 plain text (NO_COLOR works too)
  -h, --help                 this help

Exit codes: 0 all passed, 1 a case failed or errored, 2 the run could not happen, 130 interrupted.
`
