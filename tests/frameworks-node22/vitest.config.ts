import { defineConfig } from 'vitest/config'

/** The framework versions that declare Node >= 22, run under Node 24 by `npm run test:frameworks`. */
export default defineConfig({
  root: `${import.meta.dirname}/../..`,
  test: {
    include: ['tests/frameworks-node22/**/*.test.ts'],
    testTimeout: 30_000,
  },
})
