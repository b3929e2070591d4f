/**
 * Collection names both adapters accept. The embedded store turns them into file names, so
 * MongoDB is held to the same alphabet: a name that works in one adapter works in the other.
 */
const COLLECTION_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,99}$/;

export function assertCollectionName(name: string): void {
  if (!COLLECTION_NAME.test(name)) {
    throw new Error(`invalid collection name "${name}" (letters, digits, "_" and "-", starting with a letter)`);
  }
}
