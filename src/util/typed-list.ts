type TypedArray = Float64Array | Uint32Array | Int32Array | Uint8Array

/**
 * A growing list of numbers in a typed array, doubled when full: no boxed numbers, and its storage lies outside the
 * JavaScript heap, so a 100k-item list neither slows the garbage collector nor grows its young generation.
 */
export class TypedList<T extends TypedArray> {
  #values: T
  #length = 0

  /** `capacity`: how many items are likely, so the storage is made once at that size */
  constructor(type: new (length: number) => T, capacity = 64) {
    this.#values = new type(Math.max(16, capacity))
  }

  get length(): number {
    return this.#length
  }

  push(value: number): void {
    if (this.#length === this.#values.length) {
      const grown = new (this.#values.constructor as new (length: number) => T)(2 * this.#length)
      grown.set(this.#values)
      this.#values = grown
    }
    this.#values[this.#length++] = value
  }

  get(index: number): number {
    return this.#values[index] as number
  }

  /** The items as a view of the list's storage: valid until the next `push`. */
  view(): T {
    return this.#values.subarray(0, this.#length) as T
  }
}
