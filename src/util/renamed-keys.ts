/** Object schemas whose keys were renamed before 1.0 → old key → new key, so an old key's error names the new one. */
export const renamedKeys = new WeakMap<object, Readonly<Record<string, string>>>()

/** Marks `schema`'s renamed keys (no alias: the old key stays an error, now with the new name in it). */
export function withRenamedKeys<T extends object>(schema: T, renamed: Readonly<Record<string, string>>): T {
  renamedKeys.set(schema, renamed)
  return schema
}
