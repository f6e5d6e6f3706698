/** folder of the scaffolded agent, check and case files */
export const DEFAULT_INIT_DIR = 'evals'

/** the scaffolded case file's `model:`: the offline stand-in, no API key needed */
export const DEFAULT_INIT_MODEL = 'local'
