/** A model that turns texts into vectors, for checks such as `similar`. */
export interface EmbeddingModel {
  /** shown in reasons and errors, e.g. `local` or `openai:text-embedding-3-small` */
  readonly id: string
  /** one vector per text, in order; all of one length */
  embed(texts: readonly string[], options: { signal: AbortSignal }): Promise<number[][]>
}

/** Makes an embedding model from the part of a model id after `prefix:` (empty for a bare `local`). */
export type EmbeddingModelFactory = (model: string) => EmbeddingModel
