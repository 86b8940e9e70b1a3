/**
 * A ceiling on the work one request may make an engine do, counted in the engine's own units
 * (characters measured, pieces placed, bytes inflated). The engine ticks as it works; past the
 * ceiling `tick` throws the engine's error, so a hostile input stops at a known cost instead of
 * holding the worker. Deterministic, unlike a clock: the same input stops at the same place.
 */
export class WorkBudget {
  used = 0;

  constructor(
    readonly max: number,
    private readonly exceeded: (max: number) => Error,
  ) {}

  tick(units = 1): void {
    this.used += units;
    if (this.used > this.max) throw this.exceeded(this.max);
  }
}
