const EXIT_CODES = `Exit codes: 0 all passed (gate warnings included); 1 a case failed or the gate failed; 2 the run could not
happen, or cases only errored — an infrastructure failure (target crashed or timed out, a check threw, a missing
or broken baseline), not a quality failure; 130 interrupted.
`

export const HELP = (
  version: string,
): string => `evals ${version} — evaluation and regression testing for LLM agents

Usage
  evals run <cases.yaml|glob…> [options]   run case files and print a summary
  evals compare <run> <baseline.json|run>  compare a finished run with a baseline or another run; apply the gate
  evals baseline show <baseline.json>      print a baseline file
  evals report <report.json> [options]     re-render JUnit, HTML or Markdown from a JSON report
  evals merge <run-dir…> [--out <dir>]     join the runs of \`--shard i/n\` into one run and report
  evals schema                             print the JSON Schema of case files
  evals init [--yes] [--dir <dir>]         scaffold an agent, cases, a check, a baseline and CI in this project
  evals view [reports-dir…] [--open]       browse runs, trends and comparisons in a local web app
  evals --version                          print the version

Run \`evals run --help\` for the options of \`run\`.
${EXIT_CODES}`

export const RUN_HELP = `Usage: evals run <cases.yaml|glob…> [options]

Options
  --model <provider:model>   model for agent targets; overrides the files' \`model:\` (e.g. openai:gpt-4.1-mini);
                             repeat it to compare models: each runs every case as a variant
  --judge <provider:model>   model for LLM-judge checks; overrides the files' \`judge.model\`
  --require-judges           a suite with LLM judges but no judge model cannot run (exit 2), instead of passing
                             its cases on the other checks only (\`partial\`); as \`gate: { require_judges: true }\`
  --concurrency <n>          case runs at once (default 4)
  --filter <pattern>         only case ids matching; \`*\` is a wildcard, otherwise a substring
  --tag <tag>                only cases with this tag; repeat for any of several
  --trials <n>               runs per case; overrides the files' \`trials:\`
  --timeout <ms>             per-case limit on target plus checks (default 60000)
  --bail                     stop starting cases after the first failed or errored one
  --out <dir>                where \`<run-id>/\` with results and reports goes (default reports)
  --reporter <names>         comma-separated or repeated: console, json, junit, html, markdown, or a module path
                             (default console,json,junit,html); markdown and modules add to the defaults, a list
                             naming a default reporter replaces them (\`--reporter console,markdown\`);
                             report.json is written whenever a file format is on
  --record                   call models live and save every call to \`__cassettes__/<suite>.jsonl\` beside the suite
  --replay [auto]            serve model calls from the cassette, no API key needed; a miss makes the case errored
                             with a diff; \`auto\` calls and records the misses
  --shard <i/n>              run only shard i of n (1-based); a case's shard comes from a hash of suite and case
                             id, so it is the same on every machine; join the shards with \`evals merge\`
  --otel <url>               export OpenTelemetry spans (one trace per case: agent runs, model and tool calls) to
                             an OTLP/HTTP traces endpoint, e.g. http://localhost:4318/v1/traces
  --resume <run-dir>         finish an interrupted run (\`reports/<run-id>\`): run only the (case, trial) pairs
                             missing from its results.jsonl, with the files and flags saved in its run.json
  --resume-force             resume even though case definitions changed since the run
  --redact <pattern>         a regular expression for secrets of your own, replaced by [redacted] in every file
                             and in the console, like keys and \`*_API_KEY\`/\`*_TOKEN\` values; repeatable

Baselines and the regression gate
  --update-baseline          after a complete run with no failed or errored case, write
                             \`<baseline-dir>/<suite>.json\` (atomically; commit it)
  --force                    with --update-baseline: write it even though cases failed or errored
  --baseline-dir <dir>       where --update-baseline writes (default baselines)
  --update-snapshots         store every case's output as its snapshot, \`<baseline-dir>/<suite>.snapshots.json\`
  --baseline <dir|file>      compare with \`<dir>/<suite>.json\` (or one file) and apply the gate
  --baseline-missing ok      a missing baseline is a notice, not an error (first runs)
  --alpha <p>                significance level of the accuracy-regression test (default 0.05)
  --max-latency-ratio <x>    fail when p50 or p95 latency grows past x times the baseline's
  --max-cost-ratio <x>       fail when the cost per trial grows past x times the baseline's
                             The gate flags win over the case file's \`gate:\` block.
  --no-color                 plain text (NO_COLOR works too)
  -h, --help                 this help

${EXIT_CODES}`

export const COMPARE_HELP = `Usage: evals compare <reports/run-id | summary.json | reports> <baseline.json | reports/run-id> [options]

Compares a finished run (its summary.json; a reports directory means its latest run) with a baseline file, or
with another run (every suite the two share), and applies the gate: the run's \`gate:\` block under the flags.

Options
  --alpha <p>                significance level of the accuracy-regression test (default 0.05)
  --max-latency-ratio <x>    fail when p50 or p95 latency grows past x times the baseline's
  --max-cost-ratio <x>       fail when the cost per trial grows past x times the baseline's
  --no-color                 plain text
  -h, --help                 this help

Exit codes: 0 the gate passed or warned, 1 the gate failed, 2 a file is missing or invalid.
`

export const BASELINE_HELP = `Usage: evals baseline show <baseline.json>

Prints a baseline file: suite, when and from which commit it was taken, target and judges, and each case's
passes/trials, score, latency and cost. Baselines are written by \`evals run <case-file> --update-baseline\`.

Exit codes: 0 shown, 2 the file is missing or invalid.
`

export const REPORT_HELP = `Usage: evals report <report.json> [options]

Re-renders other formats from a JSON report (\`reports/<run-id>/report.json\`), e.g. after editing or merging it.

Options
  --reporter <names>         formats to write, comma-separated or repeated: junit, html, markdown (default junit,html)
  --out <dir>                where to write them (default: the report's directory)
  -h, --help                 this help

Exit codes: 0 written, 2 the report is missing or invalid.
`

export const MERGE_HELP = `Usage: evals merge <run-dir | summary.json…> [options]

Joins the runs of one \`evals run --shard i/n\` split into one run directory: one results.jsonl, run.json and
summary.json, with aggregates, baseline comparison and gate recomputed from the rows, and the usual reports.
Refuses runs of different suites, overlapping shards and case files changed since the runs.

Options
  --out <dir>                the merged run directory (default: a new run id beside the first run)
  --reporter <names>         console, json, junit, html, markdown or a module path (default console,json,junit,html);
                             markdown and modules add to the defaults, as in \`evals run\`
  --baseline <dir|file>      compare the merged run with a baseline and apply the gate (default: the shards' own)
  --baseline-missing ok      a missing baseline is a notice, not an error
  --alpha, --max-latency-ratio, --max-cost-ratio   gate flags, as for \`evals run\`
  --no-color                 plain text
  -h, --help                 this help

${EXIT_CODES}`
