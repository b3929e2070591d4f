// The hooks of loaded-modules.mjs, in the loader's thread: a synchronous append per module.
import { appendFileSync } from "node:fs";

let file;

export function initialize(data) {
  file = data.file;
}

export async function load(url, context, next) {
  if (file && !url.startsWith("node:")) appendFileSync(file, `${url}\n`);
  return next(url, context);
}
