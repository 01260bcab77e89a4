/**
 * Which other processes hold files open inside a folder: an app's PGlite
 * database is one folder for one process, and a second opener (auth migrate
 * while the app's server runs) can corrupt it.
 *
 * PGlite 0.5 gives no lock to test: the `postmaster.pid` it writes holds a fixed
 * pid (-42) and stays after it closes. What does tell is the open files: while
 * a PGlite instance is open its process keeps descriptors on the folder's
 * relation files (dozens, from the first query), and closes them all when it
 * closes. Linux lists them in /proc/<pid>/fd; elsewhere `lsof` does, when it is
 * installed. Where neither answers (Windows), nothing is found.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync, realpathSync } from "node:fs";
import { join, sep } from "node:path";

export interface FolderUser {
  pid: number;
  /** Its command line, shortened; empty when it cannot be read. */
  command: string;
}

/** Processes other than this one with a file open under `dir` (which must exist). */
export function processesUsing(dir: string): FolderUser[] {
  const real = realpathSync(dir);
  if (process.platform === "linux") return fromProc(real);
  if (process.platform === "win32") return [];
  return fromLsof(real);
}

function fromProc(dir: string): FolderUser[] {
  const inside = (path: string) => path === dir || path.startsWith(dir + sep);
  const users: FolderUser[] = [];
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    let descriptors: string[];
    try {
      descriptors = readdirSync(`/proc/${pid}/fd`);
    } catch {
      // Gone meanwhile, or another user's: not ours to see.
      continue;
    }
    const holds = descriptors.some((fd) => {
      try {
        return inside(readlinkSync(`/proc/${pid}/fd/${fd}`));
      } catch {
        return false;
      }
    });
    if (holds) users.push({ pid, command: procCommand(pid) });
  }
  return users;
}

function procCommand(pid: number): string {
  try {
    return shorten(readFileSync(join("/proc", String(pid), "cmdline"), "utf8").split("\0").filter(Boolean).join(" "));
  } catch {
    return "";
  }
}

/** `lsof -F pc +D dir`: p<pid> and c<command> lines; no lsof (or nothing open) is nothing found. */
function fromLsof(dir: string): FolderUser[] {
  const result = spawnSync("lsof", ["-F", "pc", "+D", dir], { encoding: "utf8", timeout: 10_000 });
  if (result.error || typeof result.stdout !== "string") return [];
  const users = new Map<number, FolderUser>();
  let current: FolderUser | undefined;
  for (const line of result.stdout.split("\n")) {
    if (line.startsWith("p")) {
      const pid = Number(line.slice(1));
      current = pid === process.pid ? undefined : (users.get(pid) ?? { pid, command: "" });
      if (current) users.set(pid, current);
    } else if (line.startsWith("c") && current) current.command = shorten(line.slice(1));
  }
  return [...users.values()];
}

function shorten(command: string): string {
  return command.length > 80 ? `${command.slice(0, 77)}...` : command;
}
