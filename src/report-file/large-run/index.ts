/**
 * Large-run code, boxed in: copying results.jsonl rows into report.json without parsing them again.
 *
 * Why it exists: a run of 100,000 cases appends 100,000 rows to results.jsonl, and report.json lists the same
 * rows again, sorted by suite, case id and trial. The plain way, parsing every row back and writing it out again,
 * is a second JSON pass over all of it at the end of the run. Instead the runner records a few numbers per row as
 * it appends it (`ResultRows`: suite, case id, trial, byte offset and length, in typed columns), and
 * `writeCaseLines` copies the rows' bytes in report order, about 512 KiB at a time. Only a row not written as
 * canonical JSON is parsed; a window that may hold a secret is redacted as text.
 *
 * Benchmark it serves: the 100,000-case row of `npm run bench:promptfoo` (wall time and peak RSS of `evals run`
 * with the default reporters: 9.5 s and 189 MiB on a 2-core machine, as the README gives it), and
 * `npm run bench:reports-memory` (the report writers at 100k cases within 1.3x of their memory at 10k).
 *
 * Invariant: report.json is byte-identical to its plain definition, the one `schema/report.schema.json` describes:
 * every row parsed, sorted, redacted and written as canonical JSON after the header.
 * tests/report-file/write-json-same-bytes.test.ts holds the copier to the bytes of that reference writer. The rest
 * of report-file/ is plain code; keep byte-level code in this folder.
 */
export { writeCaseLines } from './copy-rows.ts'
export { ResultRows } from './result-rows.ts'
