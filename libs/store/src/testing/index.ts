/** @payrail/store/testing: helpers for test suites only (never imported by services' src). */
export { mongoTestUrl, uniqueTestDbName, type MongoTestServer } from "./mongo-test-url.ts";
export { uncheckedStore } from "../index-coverage/index-checked.store.ts";
