import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // framework versions that declare Node >= 22: their own install, run by `npm run test:frameworks`
    exclude: ['**/node_modules/**', 'tests/frameworks-node22/**'],
    testTimeout: 20_000,
  },
})
