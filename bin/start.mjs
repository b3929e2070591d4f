// `npm start`. With NODE_ENV=production it runs the compiled launcher (dist/payrail.mjs, from
// `npm run build`) with plain node; otherwise the TypeScript sources through tsx, so a change
// needs no build. Plain JavaScript on purpose: in production there is no TypeScript loader.
// Both run in this process (no child to relay signals to), as `payrail start`.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

const production = process.env.NODE_ENV === "production";
const target = fileURLToPath(new URL(production ? "../dist/payrail.mjs" : "./payrail.ts", import.meta.url));

if (production && !existsSync(target)) {
  console.error(`payrail: ${target} not found. NODE_ENV=production runs the compiled build: run \`npm run build\` first.`);
  process.exit(1);
}
if (!production) {
  const { register } = await import("tsx/esm/api");
  register();
}
// Under `npm start` the server is npm's grandchild (npm → sh → node), and npm passes no signal
// on: a SIGTERM or SIGKILL to npm's pid left this process running, orphaned. Started by npm, it
// stops gracefully (as on SIGTERM) once npm or the shell between is gone. Not when started
// directly, where a parent that exits first (a shell, `nohup`) is no reason to stop.
if (process.env.npm_lifecycle_event) {
  const watched = [process.ppid, parentOf(process.ppid)].filter((pid) => pid > 1);
  const gone = (pid) => {
    try {
      process.kill(pid, 0);
      return false;
    } catch (err) {
      return err.code === "ESRCH";
    }
  };
  // One SIGTERM only: a second one means "exit now" (the lifecycle's signal handling), and a
  // drain on a loaded machine outlasts the next tick. And only once the launcher handles
  // SIGTERM, which it does when it has started: before, the signal's default action would end
  // a start under way at once, its pid file left behind.
  const watch = setInterval(() => {
    if (!watched.some(gone) || process.listenerCount("SIGTERM") === 0) return;
    clearInterval(watch);
    process.kill(process.pid, "SIGTERM");
  }, 1_000);
  watch.unref();
}

/** A process's parent pid from /proc (Linux); 0 where there is none to read. */
function parentOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ")".
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) || 0;
  } catch {
    return 0;
  }
}
// The launcher reads its command from argv, as if started as `<target> start [args]`
// (`npm start -- --help` prints start's help).
process.argv.splice(1, process.argv.length, target, "start", ...process.argv.slice(2));
await import(pathToFileURL(target).href);
