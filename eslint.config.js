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
    'src/{engine,providers,tools,mcp}/**': [...HARNESS, 'evaluators'],
    // the floor everything stands on
    'src/{util,stats}/**': [...HARNESS, ...ENGINE, 'evaluators'],
    // types only, below everything that uses them
    'src/model/**': ['runner', 'cases', 'targets', 'reporters', 'replay', ...FRONT_ENDS],
    // checks judge transcripts; compiling a case's checks is the case loader's job
    'src/evaluators/**': ['cases', 'runner', 'targets', 'reporters', 'report-file', ...FRONT_ENDS],
    'src/targets/**': ['cases', 'runner', 'evaluators', 'reporters', 'report-file', ...FRONT_ENDS],
    // adapters map other frameworks' results to transcripts; targets run them
    'src/adapters/**': [...HARNESS, ...ENGINE, 'evaluators'],
    'src/baselines/**': ['cases', 'runner', 'targets', 'reporters', 'report-file', ...FRONT_ENDS],
    'src/cases/**': ['runner', 'reporters', 'report-file', ...FRONT_ENDS],
    // reporters observe results; they never drive a run
    'src/{reporters,report-file}/**': ['runner', 'targets', 'cases', ...FRONT_ENDS],
  }),
  {
    files: ['tests/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/require-await': 'off',
    },
  },
)
