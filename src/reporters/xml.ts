/** A name and value of an XML attribute; an undefined value leaves the attribute out. */
export type XmlAttribute = readonly [name: string, value: string | number | undefined]

// XML 1.0 `Char`: anything else (NUL, most C0 controls, lone surrogates, U+FFFE/U+FFFF) cannot appear, even escaped
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu

const ATTRIBUTE_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '"': '&quot;',
  '\t': '&#x9;',
  '\n': '&#xA;',
  '\r': '&#xD;',
}

/** Text without the characters XML 1.0 cannot hold. */
export function xmlChars(text: string): string {
  return text.replace(NOT_XML_CHAR, '')
}

/**
 * Text with nothing to drop or escape in an attribute: printable characters of the Basic Multilingual Plane outside
 * the surrogates, but `"`, `&` and `<`. Most values (names, ids, numbers) are; one test skips the two replaces.
 */
const PLAIN_ATTRIBUTE = /^[ !#-%'-;=-\uD7FF\uE000-\uFFFD]*$/

/** An attribute value for inside double quotes; tabs and line breaks as character references, so they survive. */
export function xmlAttribute(text: string): string {
  if (PLAIN_ATTRIBUTE.test(text)) return text
  return xmlChars(text).replace(/[&<"\t\n\r]/g, (char) => ATTRIBUTE_ESCAPES[char] ?? char)
}

/**
 * A CDATA section holding `text`; each `]]>` is split across two sections, since one would end it. Parsers read
 * its `\r\n` and `\r` as `\n`, as everywhere in XML text.
 */
export function cdataSection(text: string): string {
  return `<![CDATA[${xmlChars(text).replaceAll(']]>', ']]]]><![CDATA[>')}]]>`
}

/** `<name a="1" b="2">`, or `<name a="1" b="2"/>` when `empty`. */
export function xmlTag(name: string, attributes: readonly XmlAttribute[], empty = false): string {
  let tag = `<${name}`
  for (const [key, value] of attributes)
    if (value !== undefined) tag += ` ${key}="${xmlAttribute(String(value))}"`
  return `${tag}${empty ? '/>' : '>'}`
}
