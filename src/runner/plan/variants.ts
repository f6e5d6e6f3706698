import type { CaseDefinition } from '../../cases/case-definition.ts'
import type { Suite, Variant } from '../../cases/suite.ts'

/**
 * One copy of the suite per variant, with the variant's model, target and judge settings in place of the suite's;
 * the suite itself when it has no variants. `models` (several `--model`) replace the file's `variants:`.
 */
export function expandVariants(suite: Suite, models?: readonly string[]): Suite[] {
  const variants = models?.map((model): Variant => ({ name: model, model })) ?? suite.variants
  if (variants === undefined || variants.length === 0) return [suite]
  return variants.map((variant) => ({
    ...suite,
    variant,
    ...(variant.model !== undefined && { model: variant.model }),
    ...(variant.target && { target: variant.target }),
    ...(variant.judge && { judge: { ...suite.judge, ...variant.judge } }),
  }))
}

/** The suite's name for its files (baselines, snapshots): `<suite>@<variant>` for a variant's copy. */
export function suiteFileKey(suite: Pick<Suite, 'name' | 'variant'>): string {
  return suite.variant === undefined ? suite.name : `${suite.name}@${suite.variant.name}`
}

/** A case as it runs under a variant: the variant's `vars` merged over the case's (the input stays rendered). */
export function withVariantVars(caseDef: CaseDefinition, variant: Variant | undefined): CaseDefinition {
  return variant?.vars ? { ...caseDef, vars: { ...caseDef.vars, ...variant.vars } } : caseDef
}
