/**
 * Large-run code, boxed in: copying results.jsonl rows into report.json without parsing them again.
 *
 * Why it exists: a run of 100,000 cases appends ~170 MB of rows to results.jsonl, and report.json lists the same
 * rows again, sorted by suite, case id and trial. The plain way, parsing every row back and writing it out again,
 * is a second JSON pass over all of it at the end of the run. Instead the runner records a few numbers per row as it appends it (`ResultRows`: suite, case id,
 * trial, byte offset and length, in typed columns) and `writeCaseLines` copies the rows' bytes in report order, a
 * window of about 512 KB at a time, parsing only a row that was not written canonically or may hold a secret.
 *
 * Benchmark it serves: the 100,000-case row of `npm run bench:promptfoo` (whole-process wall time and peak RSS of
 * `evals run` with the default reporters; see the README's figures) and `npm run bench:reports-memory` (report
 * writers at 100k within 1.3x of their 10k memory).
 *
 * Invariant: report.json comes out byte-identical to the plain definition, every row parsed, validated by
 * `schema/report.schema.json`, keys sorted, redacted and written as canonical JSON
 * (tests/report-file/write-json-same-bytes.test.ts holds the two writers to the same bytes). Everything else in
 * report-file/ is plain code; keep byte-level code in this folder.
 */
export { writeCaseLines } from './copy-rows.ts'
export { ResultRows } from './result-rows.ts'
