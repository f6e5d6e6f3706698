/** Inline CSS of the HTML report. */
export const PAGE_STYLE = `
:root { --row: 28px; --fg: #1b1f24; --dim: #656d76; --line: #d0d7de; --bg: #fff; --alt: #f6f8fa;
  --passed: #1a7f37; --failed: #cf222e; --errored: #9a6700; --skipped: #656d76; }
* { box-sizing: border-box; }
body { margin: 0; padding: 16px 24px; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
h1 { font-size: 20px; margin: 0 0 4px; }
h2 { font-size: 16px; margin: 16px 0 6px; }
h3 { font-size: 14px; margin: 12px 0 4px; }
#meta { color: var(--dim); margin: 0 0 12px; }
#cards { display: flex; flex-wrap: wrap; gap: 8px; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 6px 12px; min-width: 110px; }
.card b { display: block; font-size: 18px; }
.card span { color: var(--dim); font-size: 12px; }
#gate, #baseline { margin-top: 10px; }
.box { border-left: 4px solid var(--line); padding: 4px 12px; background: var(--alt); }
.box.pass { border-color: var(--passed); } .box.fail { border-color: var(--failed); } .box.warn { border-color: var(--errored); }
#controls { display: flex; flex-wrap: wrap; gap: 12px; align-items: end; margin: 16px 0 8px; }
fieldset { border: 1px solid var(--line); border-radius: 6px; padding: 2px 8px; margin: 0; }
fieldset label { margin-right: 8px; }
#shown { color: var(--dim); }
#table { border: 1px solid var(--line); border-radius: 6px; }
.row { display: grid; grid-template-columns: 90px minmax(160px, 2fr) 60px 70px 80px 80px minmax(160px, 3fr) 110px;
  height: var(--row); align-items: center; padding: 0 8px; gap: 8px; white-space: nowrap; cursor: pointer; }
.row > span { overflow: hidden; text-overflow: ellipsis; }
.row.head { font-weight: 600; background: var(--alt); border-bottom: 1px solid var(--line); cursor: default; }
.row.odd { background: var(--alt); }
.row.sel { outline: 2px solid #0969da; outline-offset: -2px; }
/* as tall as its rows up to 60% of the screen: a short run leaves no blank table on the first screen */
#viewport { max-height: 60vh; min-height: var(--row); overflow: auto; position: relative; }
#rows { position: absolute; left: 0; right: 0; top: 0; }
.st { font-weight: 600; } .st.passed { color: var(--passed); } .st.failed { color: var(--failed); }
.st.errored { color: var(--errored); } .st.skipped { color: var(--skipped); }
.st.partial { color: var(--errored); }
#detail { margin-top: 16px; }
.hint { color: var(--dim); }
pre { background: var(--alt); border: 1px solid var(--line); border-radius: 6px; padding: 8px; margin: 4px 0;
  white-space: pre-wrap; word-break: break-word; max-height: 320px; overflow: auto; font: 12px/1.4 ui-monospace, monospace; }
table.kv { border-collapse: collapse; } table.kv td { padding: 2px 8px; vertical-align: top; border-bottom: 1px solid var(--line); }
.timeline { position: relative; border: 1px solid var(--line); border-radius: 6px; padding: 4px 0; }
.step { display: grid; grid-template-columns: minmax(200px, 40%) 1fr; gap: 8px; height: 22px; font-size: 12px; padding: 0 8px; }
.step .label { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; align-self: center; }
.step .track { position: relative; }
.step .bar { position: absolute; top: 3px; height: 16px; min-width: 2px; border-radius: 3px; background: #8c959f; }
.step .bar.llm_call { background: #0969da; } .step .bar.tool_call, .step .bar.tool_result { background: #8250df; }
.step .bar.error, .step .bar.retry, .step .bar.fallback { background: var(--failed); }
.step .bar.span { background: #1a7f37; } .step .bar.span.error { background: var(--failed); }
.span-error .label { color: var(--failed); }
.turn { border-left: 3px solid var(--line); padding: 0 0 4px 10px; margin: 8px 0; }
.turn h4 { font-size: 13px; margin: 4px 0; color: var(--dim); }
.turn pre.user::before { content: 'user: '; color: var(--dim); } .turn pre.reply::before { content: 'reply: '; color: var(--dim); }
details.reasoning { margin: 4px 0; } details.reasoning summary { cursor: pointer; color: var(--dim); font-size: 13px; }
#chart { margin: 12px 0 0; } #chart svg { max-width: 100%; height: auto; } #chart figcaption { font-size: 12px; }
#matrix h2 { margin-top: 8px; }
.mtable { border: 1px solid var(--line); border-radius: 6px; margin-bottom: 16px; }
.mrow { display: grid; height: var(--row); align-items: center; padding: 0 8px; gap: 8px; white-space: nowrap; }
.mrow > span { overflow: hidden; text-overflow: ellipsis; }
.mrow.head { font-weight: 600; background: var(--alt); border-bottom: 1px solid var(--line); }
.mrow.odd { background: var(--alt); }
.mrow .case, .mrow .cell { cursor: pointer; } .mrow .case:hover, .mrow .cell:hover { text-decoration: underline; }
.mrow .none { color: var(--dim); }
#mviewport { max-height: 40vh; overflow: auto; position: relative; }
#mrows { position: absolute; left: 0; right: 0; top: 0; }
.sides { display: grid; grid-template-columns: 1fr 1fr; gap: 16px; }
.side { min-width: 0; border-top: 3px solid var(--line); }
`
