// ESLint flat config. Type-aware rules are left out on purpose: `tsc -b` (first step of
// `npm run lint`) already type-checks, and the non-type-checked presets keep `eslint .` fast.
import { readdirSync, readFileSync } from "node:fs";
import js from "@eslint/js";
import { defineConfig, globalIgnores } from "eslint/config";
import tseslint from "typescript-eslint";

/** The RPC operations a service offers, by export name, read from libs/contracts/src/operations/<service>/. */
function operationsOf(service) {
  const dir = new URL(`./libs/contracts/src/operations/${service}/`, import.meta.url);
  return readdirSync(dir)
    .filter((file) => file.endsWith(".op.ts"))
    .flatMap((file) => [...readFileSync(new URL(file, dir), "utf8").matchAll(/export const (\w+Op)\b/g)].map((m) => m[1]));
}

const ICU_MESSAGE = "No Intl or locale-aware call in server code: it pages ICU's data into the process for good. Use the written-out forms of libs/contracts/src/consumer-words.ts, or compare strings with < and >.";

export default defineConfig(
  globalIgnores([
    "**/node_modules/",
    "**/dist/",
    "**/dist-tools/",
    "libs/client/build/",
    "**/coverage/",
    "**/.data/",
    "**/.infra/",
  ]),
  {
    files: ["**/*.ts"],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          args: "after-used",
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          caughtErrorsIgnorePattern: "^_",
          destructuredArrayIgnorePattern: "^_",
          ignoreRestSiblings: true,
        },
      ],
      "@typescript-eslint/no-explicit-any": "warn",
    },
  },
  // Services learn of each other's state changes from domain events (docs/architecture.md):
  // no operation reports a change of the caller's own ("record…", "mark…" call-backs) …
  {
    files: ["libs/contracts/src/operations/**/*.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.name='defineOperation'] > Literal.arguments:first-child[value=/\\.(record|mark|notify|report)[A-Z]/]",
          message: "No service reports its own state change to another by RPC: publish a domain event (docs/events.md) and let the other service subscribe.",
        },
      ],
    },
  },
  // The main test project shares one module registry across files (vitest.config.ts): a module
  // mock would leak into the files after it, or miss a module an earlier file loaded.
  {
    files: ["**/*.test.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.object.name='vi'][callee.property.name=/^(mock|doMock|unmock|doUnmock|resetModules)$/]",
          message: "No module mocks in tests: the main project shares its module registry across files (vitest.config.ts). Put a fake behind the port, or replace the export itself for the file (see guarded-lookup.test.ts).",
        },
      ],
    },
  },
  // Server code writes its few en-US forms out (libs/contracts/src/consumer-words.ts): the first
  // Intl formatter, collator or locale-aware call of a process pages ICU's data in from node's
  // binary, and it stays resident for the life of the process (docs/performance.md, Memory).
  {
    files: ["services/*/src/**/*.ts", "libs/*/src/**/*.ts", "apps/*/src/**/*.ts", "bin/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-globals": ["error", { name: "Intl", message: ICU_MESSAGE }],
      "no-restricted-properties": ["error", ...["localeCompare", "toLocaleString", "toLocaleDateString", "toLocaleTimeString"].map((property) => ({ property, message: ICU_MESSAGE }))],
    },
  },
  // … and payments never calls refunds (refunds calls payments, and follows its events): no cycle.
  {
    files: ["services/payments/src/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "@payrail/contracts",
              importNames: operationsOf("refunds"),
              message: "payments never calls the refunds service (refunds follows refund_payout.settled): that would make a payments ↔ refunds cycle.",
            },
          ],
        },
      ],
    },
  },
);
