import { access, readFile } from "node:fs/promises";

/** What Linux's /proc tells of a process: its state letter (`R`, `S`, `Z`…) and when it started. */
export interface ProcStat {
  state: string;
  /** Clock ticks after boot (field 22 of /proc/<pid>/stat): with the pid, names one process for the machine's uptime. */
  startTime: string;
}

let procMounted: Promise<boolean> | undefined;

/**
 * /proc/<pid>/stat's state and start time: null when there is no such process, undefined where
 * there is no /proc (macOS), which leaves only what `kill(pid, 0)` says.
 */
export async function readProcStat(pid: number): Promise<ProcStat | null | undefined> {
  procMounted ??= access("/proc/self/stat").then(
    () => true,
    () => false,
  );
  if (!(await procMounted)) return undefined;
  const text = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => null);
  if (text === null) return null;
  // `pid (comm) state ppid …`: comm may hold spaces and parentheses, so fields count from the last ")".
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const [state, startTime] = [fields[0], fields[19]];
  return state && startTime ? { state, startTime } : null;
}

/** The program a process runs (argv[0] of /proc/<pid>/cmdline); null when unknown or empty (a zombie's). */
export async function readProgram(pid: number): Promise<string | null> {
  const cmdline = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
  return cmdline.split("\0")[0] || null;
}
