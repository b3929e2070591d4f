import { randomBytes } from "node:crypto";

/**
 * The `_id` given to a document an upsert creates when neither the filter nor the update
 * names one. Both adapters use it so an upsert never yields MongoDB's ObjectId.
 */
export function randomId(): string {
  return randomBytes(16).toString("hex");
}
