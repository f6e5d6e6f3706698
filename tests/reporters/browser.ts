import { existsSync } from 'node:fs'
import type { Browser } from 'playwright-core'

/** The system Chromium that .ci/run installs with apt. */
export const CHROMIUM = '/usr/bin/chromium'

/** Why browser tests skip, or undefined when Chromium is there. */
export const NO_CHROMIUM = existsSync(CHROMIUM)
  ? undefined
  : `Chromium not found at ${CHROMIUM}; install it (apt-get install chromium) to run the HTML report in a browser`

/** Headless Chromium with no network side channels; the page itself is loaded from file://. */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core')
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
}
