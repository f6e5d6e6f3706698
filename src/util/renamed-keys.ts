/**
 * A key the schema does not take, and what to write instead: the key it was renamed to, or `{ write }` for a key
 * from another tool's format, spelled out as it should be written (`expect: { tool: … }`).
 */
export type RenamedKey = string | { readonly write: string }

/** Object schemas whose keys were renamed before 1.0, or that other tools spell otherwise → key → what it is now. */
export const renamedKeys = new WeakMap<object, Readonly<Record<string, RenamedKey>>>()

/** Marks `schema`'s renamed keys (no alias: the old key stays an error, now with the new name in it). */
export function withRenamedKeys<T extends object>(
  schema: T,
  renamed: Readonly<Record<string, RenamedKey>>,
): T {
  renamedKeys.set(schema, renamed)
  return schema
}
