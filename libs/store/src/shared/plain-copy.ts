/**
 * A deep copy without `undefined` properties: what MongoDB stores when the driver runs with
 * `ignoreUndefined` (as ours does), so the embedded store hands back the same shape.
 */
export function plainCopy<T>(value: T): T {
  return stripUndefined(structuredClone(value)) as T;
}

function stripUndefined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripUndefined);
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (record[key] === undefined) delete record[key];
      else record[key] = stripUndefined(record[key]);
    }
  }
  return value;
}
