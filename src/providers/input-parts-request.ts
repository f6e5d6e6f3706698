import { ConfigError } from '../errors.ts'
import type { InputPart } from '../types.ts'

type ImagePart = Extract<InputPart, { type: 'image' }>
type FilePart = Extract<InputPart, { type: 'file' }>

/** Where the bytes of an image or file part are: a URL the API fetches, or inline base64 with its media type. */
export type PartSource = { url: string } | { base64: string; mediaType: string }

const DATA_URL = /^data:([^;,]*)(?:;[^,]*)?,(.*)$/s

/** The source of an image or file part: `https:` URLs as they are, `data:` URLs and base64 as inline data. */
export function sourceOf(part: ImagePart | FilePart): PartSource {
  const value = part.type === 'image' ? part.image : part.data
  if (/^https?:/i.test(value)) return { url: value }
  const dataUrl = DATA_URL.exec(value)
  const given = part.mediaType ?? (part.type === 'image' ? 'image/png' : 'application/octet-stream')
  if (dataUrl) return { base64: dataUrl[2] ?? '', mediaType: dataUrl[1] || given }
  return { base64: value, mediaType: given }
}

/** An image or file part as a URL: as given, or inline data as a `data:` URL. */
export function urlOf(source: PartSource): string {
  return 'url' in source ? source.url : `data:${source.mediaType};base64,${source.base64}`
}

/** A file part's name, for APIs that require one. */
export function filenameOf(part: FilePart): string {
  return part.filename ?? `file.${part.mediaType.split('/')[1]?.replace(/[^a-z0-9]/gi, '') || 'bin'}`
}

/** The error for a request an API cannot take (a part, a combination of settings); it names the API and what to send instead. */
export function unsupportedRequest(api: string, what: string, instead: string): ConfigError {
  return new ConfigError(`${api} does not take ${what}: ${instead}`)
}
