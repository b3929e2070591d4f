export * from "./books.op.ts";
