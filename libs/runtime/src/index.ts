export * from "./config.ts";
export * from "./logger.ts";
export * from "./lifecycle.ts";
export * from "./ids.ts";
export * from "./secret-box.ts";
export * from "./redact-url.ts";
export * from "./trust-proxy.ts";
export * from "./lease-heartbeat.ts";
