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
    if (this.#length === this.#values.length) this.#reserve(this.#length + 1)
    this.#values[this.#length++] = value
  }

  /** Lengthens the list to `length` items, each new one 0; a shorter `length` leaves it as it is. */
  grow(length: number): void {
    if (length <= this.#length) return
    if (length > this.#values.length) this.#reserve(length)
    this.#values.fill(0, this.#length, length)
    this.#length = length
  }

  get(index: number): number {
    return this.#values[index] as number
  }

  /** Replaces item `index`, which must be below `length`. */
  set(index: number, value: number): void {
    this.#values[index] = value
  }

  /** The items as a view of the list's storage: valid until the next `push` or `grow`. */
  view(): T {
    return this.#values.subarray(0, this.#length) as T
  }

  /** storage for at least `capacity` items: twice the old size, or `capacity` when that is more */
  #reserve(capacity: number): void {
    const grown = new (this.#values.constructor as new (length: number) => T)(
      Math.max(capacity, 2 * this.#values.length),
    )
    grown.set(this.#values)
    this.#values = grown
  }
}
