// `node --import <this> …`: every module the process loads through the ES module loader (its
// own files, and the entry file of each package it imports, CommonJS ones included) is appended
// to the file LOADED_MODULES_FILE names, one URL a line, before the module runs: the list is
// complete however the process ends. For tests of what a command loads (test/bin/cli-loading.test.ts).
import { register } from "node:module";

register("./loaded-modules.hooks.mjs", import.meta.url, { data: { file: process.env.LOADED_MODULES_FILE } });
