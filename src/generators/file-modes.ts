/**
 * Secrets at rest: which modes are too loose for a file that holds secrets (an
 * env file, the embedded database), the `chmod` that fixes one, and what to say
 * when a loose env file is found. Pure: the modes are read and set in `engine/`.
 */
import { parseAssignment, splitLines } from "./dotenv.js";
import { ROTATION_KEYS, SECRET_KEY } from "./secret.js";

/** Read and write for the owner alone: env files, the SQLite file (its -wal and -shm take its mode). */
export const OWNER_FILE = 0o600;
/** The PGlite folder: its files are created 0666 by PGlite itself, so the folder is what keeps others out. */
export const OWNER_DIR = 0o700;

/** Any permission for the group or for others: anyone else on the machine may read (or change) it. */
export function isLoose(mode: number): boolean {
  return (mode & 0o077) !== 0;
}

/** `0644`, as `ls -l` users and chmod write it. */
export function octal(mode: number): string {
  return `0${(mode & 0o777).toString(8).padStart(3, "0")}`;
}

/** A path as a shell word: quoted unless it is plainly safe, never mistaken for an option. */
export function shellWord(path: string): string {
  if (/^[\w./@%+=:,-]+$/.test(path)) return path.startsWith("-") ? `./${path}` : path;
  return `'${path.replaceAll("'", `'\\''`)}'`;
}

/** The command that makes `paths` owner-only (`chmod 600 .env`). */
export function chmodCommand(mode: number, paths: readonly string[]): string {
  return `chmod ${(mode & 0o777).toString(8)} ${paths.map(shellWord).join(" ")}`;
}

const SECRET_KEYS: readonly string[] = [SECRET_KEY, ...ROTATION_KEYS];

/**
 * The AUTH_SECRET keys of `after` whose value was already in `before`: secrets
 * that others could read while the file was loose, and that still sign sessions.
 */
export function exposedSecretKeys(before: string, after: string): string[] {
  const values = (text: string) => {
    const found = new Map<string, string>();
    for (const line of splitLines(text.replace(/^\uFEFF/, ""))) {
      const assignment = parseAssignment(line.text);
      if (assignment && SECRET_KEYS.includes(assignment.key) && assignment.value !== "") found.set(assignment.key, assignment.value);
    }
    return found;
  };
  const old = new Set(values(before).values());
  return [...values(after)].filter(([, value]) => old.has(value)).map(([key]) => key);
}

function secretKeysOf(text: string): string[] {
  const keys = new Set<string>();
  for (const line of splitLines(text.replace(/^\uFEFF/, ""))) {
    const assignment = parseAssignment(line.text);
    if (assignment && SECRET_KEYS.includes(assignment.key) && assignment.value !== "") keys.add(assignment.key);
  }
  return [...keys];
}

export interface LooseEnvFile {
  /** The env file as the user sees it (relative to where they ran the command). */
  shown: string;
  /** The mode it had. */
  mode: number;
  /** Its text before and after this command. */
  before: string;
  after: string;
  /** The command that replaces its AUTH_SECRET (`npx @gatehouse/cli secret --yes ...`). */
  replaceSecret: string;
}

/**
 * What to tell the user when a command tightened a loose env file: that it was
 * readable, that it is 0600 now, and which secrets in it may have been read and
 * must be replaced. `--rotate` is not the fix: it would keep the exposed secret valid.
 */
export function looseEnvWarning({ shown, mode, before, after, replaceSecret }: LooseEnvFile): string {
  const exposed = exposedSecretKeys(before, after);
  const lines = [
    `Warning: ${shown} was readable by other users of this machine (mode ${octal(mode)}); it is now ${octal(OWNER_FILE)} (only its owner can read it).`,
    "A secret that was in it before may have been read.",
  ];
  // After a rotation the new secret was never in the loose file: deleting the exposed ones is enough, and keeps the new one.
  const rotated = secretKeysOf(after).some((key) => !exposed.includes(key));
  if (exposed.includes(SECRET_KEY) && !rotated) {
    lines.push(`Replace its ${SECRET_KEY}: \`${replaceSecret}\` (everyone is signed out; --rotate would keep the exposed secret valid).`);
  }
  const oldOnes = exposed.filter((key) => key !== SECRET_KEY || rotated);
  if (oldOnes.length > 0) {
    const names = oldOnes.length > 1 ? `${oldOnes.slice(0, -1).join(", ")} and ${oldOnes.at(-1)}` : oldOnes[0];
    lines.push(`Delete ${names} from ${shown}: whoever read the file can still sign sessions with ${oldOnes.length > 1 ? "them" : "it"}.`);
  }
  lines.push("Change any other secret it held (OAuth client secrets, database passwords) where it was issued.");
  return lines.join("\n");
}

/**
 * `auth secret --yes` for the env file at `fromCwd` (relative to where the user
 * runs it): it replaces AUTH_SECRET there. Not `--rotate`, which keeps the old one.
 */
export function replaceSecretCommand(fromCwd: string): string {
  return `npx @gatehouse/cli secret --yes${fromCwd === ".env" ? "" : ` --env-file ${shellWord(fromCwd)}`}`;
}
