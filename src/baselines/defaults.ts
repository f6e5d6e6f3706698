/** significance level of the accuracy-regression test when the `gate:` block and `--alpha` set none */
export const DEFAULT_ALPHA = 0.05
