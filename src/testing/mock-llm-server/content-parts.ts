import type { MockErrorReply, MockRequest } from './types.ts'

type Fields = Record<string, unknown>

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp']
const DATA_URL = /^data:[\w.+-]+\/[\w.+-]+;base64,[A-Za-z0-9+/=]*$/

/**
 * A 400 for a user message's content part the called API would reject (an unknown type, an image or file in
 * another API's shape, data that is not a base64 `data:` URL), as the real APIs answer; undefined when all are fine.
 */
export function contentPartProblem(request: MockRequest): MockErrorReply | undefined {
  const body = (request.body ?? {}) as Fields
  const list = request.api === 'openai-responses' ? body.input : body.messages
  if (!Array.isArray(list)) return undefined
  for (const [index, message] of (list as Fields[]).entries()) {
    if (!Array.isArray(message.content)) continue
    for (const [at, part] of (message.content as Fields[]).entries()) {
      const problem = problemOf(request.api, part)
      const where = `${request.api === 'openai-responses' ? 'input' : 'messages'}[${index}].content[${at}]`
      if (problem) return { status: 400, message: `Invalid content part at ${where}: ${problem}` }
    }
  }
  return undefined
}

function problemOf(api: MockRequest['api'], part: Fields): string | undefined {
  if (api === 'openai') return chatProblem(part)
  if (api === 'openai-responses') return responsesProblem(part)
  return anthropicProblem(part)
}

function chatProblem(part: Fields): string | undefined {
  switch (part.type) {
    case 'text':
      return text(part.text)
    case 'image_url':
      return url((part.image_url as Fields | undefined)?.url, 'image_url.url')
    case 'file': {
      const file = (part.file ?? {}) as Fields
      if (typeof file.file_id === 'string') return undefined
      return dataUrl(file.file_data, 'file.file_data') ?? text(file.filename, 'file.filename')
    }
    default:
      return `unknown type ${JSON.stringify(part.type)}`
  }
}

function responsesProblem(part: Fields): string | undefined {
  switch (part.type) {
    case 'input_text':
    case 'output_text':
      return text(part.text)
    case 'input_image':
      return url(part.image_url, 'image_url')
    case 'input_file':
      if (typeof part.file_url === 'string') return url(part.file_url, 'file_url')
      return dataUrl(part.file_data, 'file_data') ?? text(part.filename, 'filename')
    default:
      return `unknown type ${JSON.stringify(part.type)}`
  }
}

function anthropicProblem(part: Fields): string | undefined {
  const source = (part.source ?? {}) as Fields
  switch (part.type) {
    case 'image':
      if (source.type === 'url') return url(source.url, 'source.url')
      if (!IMAGE_TYPES.includes(String(source.media_type)))
        return `image media_type must be one of ${IMAGE_TYPES.join(', ')}`
      return base64(source.data)
    case 'document':
      if (source.type === 'url') return url(source.url, 'source.url')
      if (source.type === 'text') return text(source.data, 'source.data')
      if (source.media_type !== 'application/pdf') return 'a base64 document must be application/pdf'
      return base64(source.data)
    case 'text':
      return text(part.text)
    case 'tool_result':
    case 'tool_use':
    case 'thinking':
    case 'redacted_thinking':
      return undefined
    default:
      return `unknown type ${JSON.stringify(part.type)}`
  }
}

function text(value: unknown, name = 'text'): string | undefined {
  return typeof value === 'string' ? undefined : `\`${name}\` must be a string`
}

function url(value: unknown, name: string): string | undefined {
  if (typeof value === 'string' && (/^https?:\/\//.test(value) || DATA_URL.test(value))) return undefined
  return `\`${name}\` must be an https URL or a base64 data: URL`
}

function dataUrl(value: unknown, name: string): string | undefined {
  return typeof value === 'string' && DATA_URL.test(value)
    ? undefined
    : `\`${name}\` must be a base64 data: URL`
}

function base64(value: unknown): string | undefined {
  return typeof value === 'string' && /^[A-Za-z0-9+/=]*$/.test(value)
    ? undefined
    : '`source.data` must be base64'
}
