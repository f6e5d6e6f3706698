/**
 * Whether a JSON Schema can be sent with `strict: true` to OpenAI structured outputs: every object closes its
 * properties (`additionalProperties: false`) and requires all of them. Anything else goes with `strict: false`.
 */
export function isStrictCompatible(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return true
  const node = schema as Record<string, unknown>
  const properties = asRecord(node['properties'])
  if (isObjectSchema(node)) {
    if (node['additionalProperties'] !== false) return false
    const required = Array.isArray(node['required']) ? (node['required'] as unknown[]) : []
    if (!Object.keys(properties ?? {}).every((key) => required.includes(key))) return false
  }
  return subschemas(node, properties).every(isStrictCompatible)
}

function subschemas(
  node: Record<string, unknown>,
  properties: Record<string, unknown> | undefined,
): unknown[] {
  const list: unknown[] = [...Object.values(properties ?? {}), node['items']]
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) {
    const value = node[key]
    if (Array.isArray(value)) list.push(...(value as unknown[]))
  }
  for (const key of ['$defs', 'definitions']) list.push(...Object.values(asRecord(node[key]) ?? {}))
  return list
}

function isObjectSchema(node: Record<string, unknown>): boolean {
  const type = node['type']
  return type === 'object' || (Array.isArray(type) && type.includes('object')) || 'properties' in node
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined
}
