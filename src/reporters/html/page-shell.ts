/** What the page shell is filled with; `nonce` and `title` are HTML-escaped, the rest goes in as is. */
export interface PageShellValues {
  nonce: string
  title: string
  style: string
  script: string
  /** the embedded JSON, already safe inside `<script>` */
  data: string
}

/**
 * The shell of the HTML report. A Content-Security-Policy allows only the page's own nonce-tagged style and
 * script and no network at all, so hostile output that slipped through could neither run nor call out.
 */
export function pageShell(values: PageShellValues): string {
  const nonce = escapeHtml(values.nonce)
  const title = escapeHtml(values.title)
  const { style, script, data } = values
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; img-src data:; base-uri 'none'; form-action 'none'">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<style nonce="${nonce}">${style}</style>
</head>
<body>
<header id="head"><h1>${title}</h1><p id="meta"></p><div id="cards"></div><div id="gate"></div><div id="baseline"></div></header>
<section id="controls" aria-label="Filters">
  <fieldset id="statuses"><legend>Status</legend></fieldset>
  <label>Tag <select id="tag"><option value="">any</option></select></label>
  <label>Evaluator <select id="evaluator"><option value="">any</option></select></label>
  <label>Search <input id="search" type="search" placeholder="case id, output, reason…" autocomplete="off"></label>
  <span id="shown" aria-live="polite"></span>
</section>
<div id="table" role="table" aria-label="Cases">
  <div class="row head" role="row"></div>
  <div id="viewport" tabindex="0"><div id="spacer"></div><div id="rows"></div></div>
</div>
<section id="detail" aria-live="polite"><p class="hint">Select a case to see its input, output, tool calls, verdicts and trace.</p></section>
<script type="application/json" id="evals-data">${data}</script>
<script nonce="${nonce}">${script}</script>
</body>
</html>
`
}

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#x27;',
  '`': '&#x60;',
  '=': '&#x3D;',
}

/** HTML-escapes text, `'`, `` ` `` and `=` included (the set Handlebars escapes, which earlier reports used). */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`=]/g, (char) => HTML_ESCAPES[char] ?? char)
}
