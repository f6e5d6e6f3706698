/** Where to cut `text` to keep at most `max` characters: `max`, or one less so a surrogate pair is never split. */
export function cutEnd(text: string, max: number): number {
  const last = text.charCodeAt(max - 1)
  return last >= 0xd800 && last <= 0xdbff ? max - 1 : max
}
