/** The view's one page; the script and uPlot come from /assets, so no inline script runs (see the CSP). */
export const VIEW_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:">
<title>evals view</title>
<link rel="stylesheet" href="/assets/uplot.css">
<style>
  body { font: 14px/1.4 system-ui, sans-serif; margin: 0 2rem 3rem; color: #1f2328; }
  header { display: flex; gap: 1rem; align-items: baseline; }
  h1 { font-size: 1.3rem; } h2 { font-size: 1.1rem; margin-top: 2rem; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: .25rem .5rem; border-bottom: 1px solid #d0d7de; white-space: nowrap; }
  td.reason { white-space: normal; }
  .muted { color: #656d76; } .pass { color: #1a7f37; } .fail { color: #cf222e; } .err { color: #9a6700; }
  .state-running { color: #0969da; } .state-torn, .state-partial { color: #9a6700; }
  .panel { border: 1px solid #d0d7de; border-radius: 6px; padding: .5rem 1rem; margin: 1rem 0; }
  .t-regressed { color: #cf222e; font-weight: 600; } .t-improved { color: #1a7f37; }
  .gate { font-weight: 600; padding: 0 .35rem; border-radius: 3px; }
  .gate-pass { color: #1a7f37; } .gate-warn { color: #7d4e00; background: #fff8c5; }
  .gate-fail { color: #fff; background: #cf222e; }
  td .line { line-height: 1.5; } td.variant .line { font-weight: 600; }
  button { font: inherit; }
</style>
</head>
<body>
<header><h1>evals view</h1><span id="roots" class="muted"></span></header>
<div id="live" class="panel" hidden></div>
<main id="suites"><p class="muted">Loading runs…</p></main>
<script src="/assets/uplot.js"></script>
<script src="/assets/view.js"></script>
</body>
</html>
`
