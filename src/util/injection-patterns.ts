/** Phrases and tokens of known prompt-injection attacks, each with a label for reasons. */
export const injectionPatterns: [label: string, pattern: RegExp][] = [
  [
    'ignore previous instructions',
    /\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|everything\s+)?(?:of\s+)?(?:the\s+|your\s+|my\s+)?(?:previous|prior|above|earlier|preceding|original)\s+(?:instructions?|prompts?|rules|directions|guidelines|messages?)/i,
  ],
  ['new instructions', /(?:^|\n)\s*(?:#+\s*)?(?:new|updated|override)\s+(?:system\s+)?instructions?\s*:/i],
  [
    'role override',
    /\byou\s+are\s+now\s+(?:DAN\b|in\s+developer\s+mode|an?\s+(?:unrestricted|unfiltered|jailbroken))|\bDAN\s+mode\b|developer\s+mode\s+(?:enabled|activated)/i,
  ],
  [
    'system prompt request',
    /\b(?:reveal|print|show|repeat|output|leak)\s+(?:me\s+)?(?:your|the)\s+(?:system\s+prompt|hidden\s+instructions|initial\s+instructions|instructions\s+above)/i,
  ],
  [
    'system prompt disclosure',
    /\b(?:here\s+(?:is|are)\s+my\s+(?:system\s+prompt|instructions)|my\s+system\s+prompt\s+(?:is|says))\b/i,
  ],
  ['injection payload', /\b(?:I\s+have\s+been\s+PWNED|PWNED)\b/],
  [
    'chat-template token',
    /<\|(?:im_start|im_end|system|endoftext|eot_id|start_header_id)\|>|\[\/?INST\]|<<\/?SYS>>/i,
  ],
]

/** The first known injection pattern in the text, as its label and the matched text. */
export function findInjection(
  text: string,
  extra: readonly [label: string, pattern: RegExp][] = [],
): { label: string; match: string } | undefined {
  for (const [label, pattern] of [...injectionPatterns, ...extra]) {
    const match = pattern.exec(text)
    if (match) return { label, match: match[0] }
  }
  return undefined
}
