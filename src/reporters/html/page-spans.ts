import type { ReportCase } from '../../report-file/schema.ts'
import { truncate } from '../text.ts'

type Transcript = NonNullable<Extract<ReportCase, { transcript?: unknown }>['transcript']>

/** A case's spans as the page draws them: the waterfall's rows, and how many spans were left out. */
export interface PageSpans {
  /** rows in start order: name, depth below the case's root, start offset ms, duration ms, error message or '' when ok, null */
  r: { n: string; d: number; at: number; ms: number; e: string | null }[]
  /** spans left out of report.json beyond the kept ones */
  o: number
}

const NAME_CHARS = 160
/** deeper spans are drawn at this depth */
const MAX_DEPTH = 12

/** The waterfall of a case's captured spans; undefined when none were captured. */
export function pageSpansOf(transcript: Transcript): PageSpans | undefined {
  const spans = transcript.spans?.spans
  if (!spans || spans.length === 0) return undefined
  const depthOf = (index: number): number => {
    let depth = 0
    for (let parent = spans[index]?.parent; parent !== undefined; parent = spans[parent]?.parent)
      if (++depth === MAX_DEPTH) break
    return depth
  }
  const start = Math.min(...spans.map((span) => span.startedAt))
  return {
    r: spans.map((span, index) => ({
      n: truncate(span.name, NAME_CHARS),
      d: depthOf(index),
      at: Math.round(span.startedAt - start),
      ms: Math.round(span.durationMs),
      e: span.status === 'error' ? truncate(span.error ?? 'error', NAME_CHARS) : null,
    })),
    o: transcript.spans?.omitted ?? 0,
  }
}

/**
 * Draws `c.sp` as a waterfall under the case's detail: one row per span, indented by depth, a bar placed by CSS
 * widths; every string goes in as text.
 */
export const SPANS_SCRIPT = `
  function renderSpans(detail, sp) {
    detail.appendChild(el('h3', '', 'Spans'));
    var end = sp.r.reduce(function (m, s) { return Math.max(m, s.at + s.ms); }, 0) || 1;
    var fall = el('div', 'timeline waterfall');
    sp.r.forEach(function (s) {
      var row = el('div', 'step span-row' + (s.e === null ? '' : ' span-error'));
      var label = el('span', 'label', s.n + ' · ' + ms(s.ms) + (s.e === null ? '' : ' · error: ' + s.e));
      label.style.paddingLeft = s.d + 'em';
      row.appendChild(label);
      var track = el('div', 'track'), bar = el('div', 'bar span' + (s.e === null ? '' : ' error'));
      bar.style.left = (s.at / end) * 100 + '%';
      bar.style.width = (s.ms / end) * 100 + '%';
      bar.title = s.n;
      track.appendChild(bar);
      row.appendChild(track);
      fall.appendChild(row);
    });
    detail.appendChild(fall);
    if (sp.o > 0) detail.appendChild(el('p', '', sp.o + ' more spans were captured and left out of the report'));
  }
`
