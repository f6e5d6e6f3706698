import handlebars from 'handlebars'
import { expect, test } from 'vitest'
import { pageShell } from '../../src/reporters/html/page-shell.ts'

test('the page shell is filled exactly as its Handlebars template was: nonce and title escaped, the rest raw', () => {
  const template = pageShell({
    nonce: '{{nonce}}',
    title: '{{title}}',
    style: '{{{style}}}',
    script: '{{{script}}}',
    data: '{{{data}}}',
  })
  const values = {
    nonce: 'q+/Zr0==',
    title: `evals report · <b>"a" & 'b'</b> \`c\` = d`,
    style: 'a > b { content: "&" }',
    script: 'if (a < b && c === "d") e(`f`)',
    data: '{"output":"<\\/script> & = \'"}',
  }

  expect(pageShell(values)).toBe(handlebars.compile(template, { strict: true })(values))
})
