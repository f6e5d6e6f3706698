import js from '@eslint/js'
import { defineConfig } from 'eslint/config'
import globals from 'globals'
import tseslint from 'typescript-eslint'

/** Folders of the harness: what runs case files and reports on them. */
const HARNESS = [
  'cases',
  'runner',
  'targets',
  'reporters',
  'report-file',
  'baselines',
  'model',
  'replay',
  'telemetry',
  'cli',
  'vitest',
  'view',
  'init',
]
const ENGINE = ['engine', 'providers', 'tools', 'mcp']
/** The front ends: nothing below them imports them. */
const FRONT_ENDS = ['cli', 'vitest', 'view', 'init']

/**
 * One `no-restricted-imports` block per folder glob: the folders of `src/` its files may not import.
 * @param {Record<string, string[]>} rules
 */
function layers(rules) {
  return Object.entries(rules).map(([files, banned]) => ({
    files: [files],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./)+(${banned.join('|')})/`,
              message: `${files.split('/')[1]} may not import from ${banned.join(', ')}: see the layering in eslint.config.js`,
            },
          ],
        },
      ],
    },
  }))
}

/**
 * Fences for a folder split into rooms (the runner): each room imports only the rooms it names, never the files on
 * top that compose the rooms, and nothing in `banned` (folders of `src/`).
 * @param {string} folder
 * @param {Record<string, string[]>} mayImport room → the rooms it may import
 * @param {string[]} banned
 */
function rooms(folder, mayImport, banned) {
  const names = Object.keys(mayImport)
  return Object.entries(mayImport).map(([room, allowed]) => {
    const others = names.filter((other) => other !== room && !allowed.includes(other))
    return {
      files: [`src/${folder}/${room}/**`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              ...(others.length > 0
                ? [
                    {
                      regex: `^\\.\\./(${others.join('|')})/`,
                      message: `${folder}/${room} may not import ${folder}/{${others.join(',')}}: see the rooms in eslint.config.js`,
                    },
                  ]
                : []),
              {
                regex: '^\\.\\./[^/]+\\.ts$',
                message: `${folder}/${room} may not import the files on top of ${folder}/, which compose its rooms`,
              },
              {
                regex: `^(\\.\\./)+(${banned.join('|')})/`,
                message: `${folder} may not import from ${banned.join(', ')}: see the layering in eslint.config.js`,
              },
            ],
          },
        ],
      },
    }
  })
}

export default defineConfig(
  {
    ignores: [
      'dist/',
      'reports/',
      'node_modules/',
      'action/dist/',
      'coverage/',
      // its own package, installed and linted under Node 24 by `npm run test:frameworks`
      'tests/frameworks-node22/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      globals: globals.node,
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', 'bin/*.js'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true },
      ],
      '@typescript-eslint/no-unnecessary-condition': ['error', { allowConstantLoopConditions: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  ...layers({
    // the engine runs agents; it knows nothing of cases, runs, checks or reports
    'src/engine/**': [...HARNESS, 'evaluators'],
    // tools and MCP servers are what the engine calls; providers are what it calls models with
    'src/mcp/**': [...HARNESS, 'evaluators', 'engine'],
    'src/tools/**': [...HARNESS, 'evaluators', 'engine', 'mcp'],
    'src/providers/**': [...HARNESS, 'evaluators', 'engine', 'tools', 'mcp'],
    // the floor everything stands on
    'src/{util,stats}/**': [...HARNESS, ...ENGINE, 'evaluators'],
    // types only, below everything that uses them
    'src/model/**': ['runner', 'cases', 'targets', 'reporters', 'report-file', 'replay', ...FRONT_ENDS],
    // checks judge transcripts; compiling a case's checks is the case loader's job
    'src/evaluators/**': ['cases', 'runner', 'targets', 'reporters', 'report-file', ...FRONT_ENDS],
    'src/targets/**': ['cases', 'runner', 'evaluators', 'reporters', 'report-file', ...FRONT_ENDS],
    // adapters map other frameworks' results to transcripts; targets run them
    'src/adapters/**': [...HARNESS, ...ENGINE, 'evaluators'],
    // trace capture reads spans into the adapters' transcript parts; targets and the runner use it, never back
    'src/traces/**': [...HARNESS, ...ENGINE, 'evaluators'],
    'src/baselines/**': ['cases', 'runner', 'targets', 'reporters', 'report-file', ...FRONT_ENDS],
    'src/cases/**': ['runner', 'reporters', 'report-file', ...FRONT_ENDS],
    // reporters observe results; they never drive a run
    'src/{reporters,report-file}/**': ['runner', 'targets', 'cases', ...FRONT_ENDS],
    // the runner's files on top compose its rooms; the front ends call the runner
    'src/runner/*.ts': FRONT_ENDS,
  }),
  // results are the files a run writes; a plan says what runs; execute runs a pair; tally counts and gates
  ...rooms(
    'runner',
    { results: [], plan: ['results'], execute: ['plan', 'results'], tally: ['plan', 'results'] },
    FRONT_ENDS,
  ),
  {
    files: ['tests/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/require-await': 'off',
    },
  },
  // Type-aware rules cost CPU on every file they run on (the lint half of `npm test` is budgeted). Tests keep the
  // ones that catch a test that cannot fail: a promise nobody awaits (its assertions run after the test has passed),
  // an `await` on a non-promise, a promise where a callback's result is ignored. The rest judge code style and `any`
  // hygiene, which in a test only change how an assertion is written: tsc still checks every test's types.
  {
    files: ['tests/**'],
    rules: {
      ...tseslint.configs.disableTypeChecked.rules,
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  // a sample user project with its own tsconfig (a second program for ESLint to build); tsc checks its types
  {
    files: ['tests/fixtures/vitest-project/**'],
    ...tseslint.configs.disableTypeChecked,
  },
)
