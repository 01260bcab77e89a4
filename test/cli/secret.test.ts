/**
 * `auth secret`: the pure dotenv edit as input/output fixtures, then the real
 * built CLI run as a child process in temp directories.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { authBin, authInitBin, childEnv, cli, hasScript, onTerminal, root } from "./support/cli.js";
import { readEnvValue } from "../../src/generators/dotenv.js";
import { ROTATION_MARKER, generateSecret, setAuthSecret } from "../../src/generators/secret.js";

const NEW = "NEW_SECRET";
const BASE64URL_43 = /^[A-Za-z0-9_-]{43}$/;
const plain = (content: string) => setAuthSecret(content, NEW, { rotate: false });
const rotate = (content: string) => setAuthSecret(content, NEW, { rotate: true });
const marker = (key: string) => `${ROTATION_MARKER} ${key} is the newest secret and encrypts; the others still decrypt (Auth.js order).`;

describe("generateSecret", () => {
  it("is 32 random bytes as base64url (43 chars), different each time", () => {
    const a = generateSecret();
    expect(a).toMatch(BASE64URL_43);
    expect(Buffer.from(a, "base64url")).toHaveLength(32);
    expect(generateSecret()).not.toBe(a);
  });
});

describe("readEnvValue", () => {
  it.each([
    ["AUTH_SECRET=abc", "abc"],
    ['AUTH_SECRET="abc"', "abc"],
    ["AUTH_SECRET='abc'", "abc"],
    ["export AUTH_SECRET=abc", "abc"],
    ["  export   AUTH_SECRET = abc  ", "abc"],
    ["AUTH_SECRET=abc # comment", "abc"],
    ['AUTH_SECRET="a#b" # comment', "a#b"],
    ["AUTH_SECRET='a\"b'", 'a"b'],
    ["AUTH_SECRET=", ""],
  ])("%s -> %s", (line, value) => {
    expect(readEnvValue(`A=1\n${line}\nB=2\n`, "AUTH_SECRET")).toBe(value);
  });

  it("ignores commented-out lines and takes the last assignment, as dotenv does", () => {
    expect(readEnvValue("# AUTH_SECRET=x\n", "AUTH_SECRET")).toBeUndefined();
    expect(readEnvValue("AUTH_SECRET=first\nAUTH_SECRET=second\n", "AUTH_SECRET")).toBe("second");
  });
});

describe("setAuthSecret", () => {
  it("writes a new file's single line", () => {
    expect(plain("")).toEqual({ content: `AUTH_SECRET="${NEW}"\n`, change: "added", key: "AUTH_SECRET", removed: [], renamed: [], older: [] });
  });

  it("appends to a file without the key, keeping comments and other keys", () => {
    const before = "# database\nDATABASE_URL=postgres://x\n\nOTHER='y' # note\n";
    expect(plain(before).content).toBe(`${before}AUTH_SECRET="${NEW}"\n`);
  });

  it("adds the missing final newline before appending", () => {
    expect(plain("A=1").content).toBe(`A=1\nAUTH_SECRET="${NEW}"\n`);
  });

  it.each(["AUTH_SECRET=old", 'AUTH_SECRET="old"', "AUTH_SECRET='old'", "AUTH_SECRET = old # why"])(
    "replaces %s in place",
    (line) => {
      const edit = plain(`A=1\n${line}\nB=2\n`);
      expect(edit.content).toBe(`A=1\nAUTH_SECRET="${NEW}"\nB=2\n`);
      expect(edit.change).toBe("replaced");
    },
  );

  it("keeps `export` and indentation on the replaced line", () => {
    expect(plain("  export AUTH_SECRET=old\n").content).toBe(`  export AUTH_SECRET="${NEW}"\n`);
  });

  it("a replace removes the rotation secrets too: in Auth.js's order a left-over AUTH_SECRET_1 would go on encrypting", () => {
    const edit = plain(`AUTH_SECRET=s0\nA=1\n${ROTATION_MARKER} x\nAUTH_SECRET_1=s1\nAUTH_SECRET_2=s2\n`);
    expect(edit).toMatchObject({ content: `AUTH_SECRET="${NEW}"\nA=1\n`, change: "replaced", key: "AUTH_SECRET", removed: ["AUTH_SECRET_1", "AUTH_SECRET_2"] });
    // Only rotation secrets set (the oldest retired): still a replace, which asks first.
    expect(plain("AUTH_SECRET_1=s1\n")).toMatchObject({ content: `AUTH_SECRET="${NEW}"\n`, change: "replaced", removed: ["AUTH_SECRET_1"] });
  });

  it("treats an empty AUTH_SECRET as no secret", () => {
    expect(plain("AUTH_SECRET=\n")).toMatchObject({ content: `AUTH_SECRET="${NEW}"\n`, change: "added" });
    expect(rotate("AUTH_SECRET=''\n")).toMatchObject({ content: `AUTH_SECRET="${NEW}"\n`, change: "added" });
  });

  it("drops shadowed duplicates, editing the copy dotenv actually loads", () => {
    expect(plain("AUTH_SECRET=stale\nA=1\nAUTH_SECRET=live\n").content).toBe(`A=1\nAUTH_SECRET="${NEW}"\n`);
    expect(rotate("AUTH_SECRET=stale\nA=1\nAUTH_SECRET=live\n").content).toBe(`A=1\nAUTH_SECRET=live\n${marker("AUTH_SECRET_1")}\nAUTH_SECRET_1="${NEW}"\n`);
  });

  it("leaves a commented-out secret alone", () => {
    expect(plain("# AUTH_SECRET=old\n").content).toBe(`# AUTH_SECRET=old\nAUTH_SECRET="${NEW}"\n`);
  });

  // Auth.js's order (its setEnvDefaults): the highest-numbered of _3, _2, _1 that is set encrypts, then
  // AUTH_SECRET; all decrypt. So the new secret goes above the newest, and the old lines stay as they are.
  describe("rotation, in Auth.js's order", () => {
    it.each([
      ["AUTH_SECRET=old"],
      ['AUTH_SECRET="old"'],
      ["AUTH_SECRET='old'"],
      ["export AUTH_SECRET=old"],
    ])("keeps %s untouched and adds the new secret as AUTH_SECRET_1, with the comment that says so", (line) => {
      const edit = rotate(`A=1\n${line}\nB=2\n`);
      const prefix = line.startsWith("export ") ? "export " : "";
      expect(edit.content).toBe(`A=1\n${line}\n${marker("AUTH_SECRET_1")}\n${prefix}AUTH_SECRET_1="${NEW}"\nB=2\n`);
      expect(edit).toMatchObject({ change: "rotated", key: "AUTH_SECRET_1", removed: [], renamed: [], older: ["AUTH_SECRET"] });
      expect(readEnvValue(edit.content, "AUTH_SECRET")).toBe("old");
    });

    it("the next rotations take _2, then _3; the comment moves to the newest", () => {
      const once = rotate("AUTH_SECRET=s0\n").content;
      const twice = setAuthSecret(once, "NEWER", { rotate: true });
      expect(twice.content).toBe(`AUTH_SECRET=s0\nAUTH_SECRET_1="${NEW}"\n${marker("AUTH_SECRET_2")}\nAUTH_SECRET_2="NEWER"\n`);
      expect(twice).toMatchObject({ key: "AUTH_SECRET_2", older: ["AUTH_SECRET", "AUTH_SECRET_1"] });
      const thrice = setAuthSecret(twice.content, "NEWEST", { rotate: true });
      expect(thrice).toMatchObject({ key: "AUTH_SECRET_3", older: ["AUTH_SECRET", "AUTH_SECRET_1", "AUTH_SECRET_2"], removed: [] });
    });

    it("all four set: the oldest (AUTH_SECRET) drops out, the others move down a slot with their values, the new one is _3", () => {
      const before = "AUTH_SECRET=s0\n# older\nAUTH_SECRET_1=s1\nAUTH_SECRET_2=s2\nAUTH_SECRET_3=s3\nZ=1\n";
      const edit = rotate(before);
      expect(edit.content).toBe(`# older\nAUTH_SECRET=s1\nAUTH_SECRET_1=s2\nAUTH_SECRET_2=s3\n${marker("AUTH_SECRET_3")}\nAUTH_SECRET_3="${NEW}"\nZ=1\n`);
      expect(edit).toMatchObject({
        key: "AUTH_SECRET_3",
        removed: ["AUTH_SECRET"],
        renamed: [["AUTH_SECRET_1", "AUTH_SECRET"], ["AUTH_SECRET_2", "AUTH_SECRET_1"], ["AUTH_SECRET_3", "AUTH_SECRET_2"]],
      });
    });

    it("_3 set with gaps below: the secrets close up, nothing is dropped", () => {
      const edit = rotate("AUTH_SECRET=s0\nAUTH_SECRET_3=s3\n");
      expect(edit.content).toBe(`AUTH_SECRET=s0\nAUTH_SECRET_1=s3\n${marker("AUTH_SECRET_2")}\nAUTH_SECRET_2="${NEW}"\n`);
      expect(edit).toMatchObject({ key: "AUTH_SECRET_2", removed: [], renamed: [["AUTH_SECRET_3", "AUTH_SECRET_1"]] });
    });

    it("with only rotation secrets (the oldest retired), the new one still goes on top", () => {
      expect(rotate("AUTH_SECRET_1=s1\n")).toMatchObject({ content: `AUTH_SECRET_1=s1\n${marker("AUTH_SECRET_2")}\nAUTH_SECRET_2="${NEW}"\n`, key: "AUTH_SECRET_2" });
    });

    it("the order it writes is the order @auth/core reads: the new secret comes first in its list", async () => {
      const { setEnvDefaults } = await import("@auth/core");
      for (const before of ["AUTH_SECRET=s0\n", "AUTH_SECRET=s0\nAUTH_SECRET_1=s1\n", "AUTH_SECRET=s0\nAUTH_SECRET_1=s1\nAUTH_SECRET_2=s2\nAUTH_SECRET_3=s3\n"]) {
        const content = rotate(before).content;
        const env = Object.fromEntries(["AUTH_SECRET", "AUTH_SECRET_1", "AUTH_SECRET_2", "AUTH_SECRET_3"].map((k) => [k, readEnvValue(content, k)]));
        const config = { providers: [] } as { providers: never[]; secret?: string[] };
        setEnvDefaults(env, config as never);
        expect(config.secret![0]).toBe(NEW);
      }
    });
  });

  describe("line endings", () => {
    it("keeps CRLF and uses it for new lines", () => {
      expect(rotate("A=1\r\nAUTH_SECRET=old\r\nB=2\r\n").content).toBe(
        `A=1\r\nAUTH_SECRET=old\r\n${marker("AUTH_SECRET_1")}\r\nAUTH_SECRET_1="${NEW}"\r\nB=2\r\n`,
      );
      expect(plain("A=1\r\n# c\r\n").content).toBe(`A=1\r\n# c\r\nAUTH_SECRET="${NEW}"\r\n`);
    });

    it("keeps a missing final newline after a rotation of the last line", () => {
      expect(rotate("A=1\nAUTH_SECRET=old").content).toBe(`A=1\nAUTH_SECRET=old\n${marker("AUTH_SECRET_1")}\nAUTH_SECRET_1="${NEW}"`);
    });

    it("keeps a byte-order mark", () => {
      expect(plain("\uFEFFAUTH_SECRET=old\n").content).toBe(`\uFEFFAUTH_SECRET="${NEW}"\n`);
    });
  });
});

// ---- the real CLI, built from src/ ------------------------------------------

const version = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;
const isWindows = process.platform === "win32";
const dirs: string[] = [];

/** An app's folder (a package.json) with these files; `{ "package.json": null }` for a folder that is no app. */
function tempApp(files: Record<string, string | null> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "gatehouse-secret-"));
  dirs.push(dir);
  for (const [name, content] of Object.entries({ "package.json": '{ "name": "app" }\n', ...files })) if (content !== null) writeFileSync(join(dir, name), content);
  return dir;
}

/** The folder's entries besides the app's package.json. */
const entries = (dir: string) => readdirSync(dir).filter((name) => name !== "package.json");

const auth = (args: string[], cwd?: string, env?: Record<string, string | undefined>) => cli(authBin, args, cwd, env);
const envSecret = (dir: string, file = ".env") => readEnvValue(readFileSync(join(dir, file), "utf8"), "AUTH_SECRET");
const SECRET_LINE = /^AUTH_SECRET="[A-Za-z0-9_-]{43}"$/m;

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("auth CLI (built)", () => {
  it("--help lists the commands; --version prints package.json's version", () => {
    const help = auth(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: auth");
    expect(help.stdout).toMatch(/secret/);
    expect(help.stdout).toMatch(/init (\[options\] )?\[dir\]/);
    expect(auth(["--version"])).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  it("secret --help documents the flags (not the old --file), with examples and exit codes", () => {
    const help = auth(["secret", "--help"]);
    expect(help).toMatchObject({ code: 0, stderr: "" });
    expect(help.stdout).toMatch(/--raw[\s\S]*--rotate[\s\S]*-y, --yes[\s\S]*--env-file <path>[\s\S]*--cwd <dir>/);
    expect(help.stdout).not.toContain("--file");
    expect(help.stdout).toContain("Examples:");
    for (const example of ["auth secret ", "auth secret --rotate", "auth secret --env-file .env.local", "auth secret --raw"]) {
      expect(help.stdout).toContain(`$ ${example}`);
    }
    expect(help.stdout).toMatch(/Exit codes: 0 .*, 1 .*, 2 usage/);
  });

  it("creates .env owner-only, says where, never prints the secret, hints about .gitignore", () => {
    const dir = tempApp();
    const run = auth(["secret"], dir);
    expect(run.code).toBe(0);
    const secret = envSecret(dir);
    expect(secret).toMatch(BASE64URL_43);
    expect(readFileSync(join(dir, ".env"), "utf8")).toBe(`AUTH_SECRET="${secret}"\n`);
    if (!isWindows) expect(statSync(join(dir, ".env")).mode & 0o777).toBe(0o600);
    expect(run.stdout).toContain(".env");
    expect(run.stdout + run.stderr).not.toContain(secret);
    expect(run.stderr).toMatch(/not listed in .*\.gitignore/);
  });

  it("gives no .gitignore hint when .env is ignored", () => {
    const dir = tempApp({ ".gitignore": "node_modules\n.env*\n" });
    expect(auth(["secret"], dir)).toMatchObject({ code: 0, stderr: "" });
  });

  it("without a terminal, refuses to replace an existing secret: exit 2, file untouched, names --yes and --rotate", () => {
    const before = "# app\nDATABASE_URL=postgres://db\nAUTH_SECRET='old'\n";
    const dir = tempApp({ ".env": before, ".gitignore": ".env\n" });
    const run = auth(["secret"], dir);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/\.env already has an AUTH_SECRET; nothing was changed/);
    expect(run.stderr).toMatch(/--yes to replace it/);
    expect(run.stderr).toMatch(/--rotate to add the new one as AUTH_SECRET_1 \(or the next free number\) and keep the old one valid/);
    expect(readFileSync(join(dir, ".env"), "utf8")).toBe(before);
    expect(entries(dir).sort()).toEqual([".env", ".gitignore"]);
  });

  it("--yes replaces the secret in an existing file, keeping everything else and the file's owner-only mode", () => {
    const before = "# app\r\nDATABASE_URL=postgres://db\r\nAUTH_SECRET='old'\r\nTAIL=1\r\n";
    const dir = tempApp({ ".env": before, ".gitignore": ".env\n" });
    chmodSync(join(dir, ".env"), 0o700);
    const run = auth(["secret", "--yes"], dir);
    expect(run.code).toBe(0);
    const secret = envSecret(dir);
    expect(secret).toMatch(BASE64URL_43);
    expect(readFileSync(join(dir, ".env"), "utf8")).toBe(before.replace("AUTH_SECRET='old'", `AUTH_SECRET="${secret}"`));
    expect(run.stdout).toMatch(/Replaced AUTH_SECRET in \.env/);
    expect(run.stderr).toBe("");
    if (!isWindows) expect(statSync(join(dir, ".env")).mode & 0o777).toBe(0o700);
  });

  describe.skipIf(isWindows)("a .env others can read (group or world bits): made 0600 before the new secret goes in, with a warning", () => {
    const OLD = "old-secret-0123456789-abcdefghijklmnopqrstuvw";
    const mode = (dir: string) => statSync(join(dir, ".env")).mode & 0o777;

    it("0644 without a secret: the new one is written 0600; the warning says it was readable, is 0600 now, and what it held may have been read", () => {
      const dir = tempApp({ ".env": "DATABASE_URL=postgres://app:pw@db/app\n", ".gitignore": ".env\n" });
      chmodSync(join(dir, ".env"), 0o644);
      const run = auth(["secret"], dir);
      expect(run.code, run.stderr).toBe(0);
      expect(mode(dir)).toBe(0o600);
      expect(run.stderr).toContain("Warning: .env was readable by other users of this machine (mode 0644); it is now 0600 (only its owner can read it).");
      expect(run.stderr).toContain("A secret that was in it before may have been read.");
      expect(run.stderr).toContain("Change any other secret it held (OAuth client secrets, database passwords) where it was issued.");
      // The new secret was never in the loose file: nothing to replace.
      expect(run.stderr).not.toContain("Replace its AUTH_SECRET");
      expect(run.stderr).not.toContain(envSecret(dir)!);
    });

    it("0640 with --rotate: the exposed secret (AUTH_SECRET, below the new AUTH_SECRET_1) is named to delete; --yes replaces it and nothing exposed is left to name", () => {
      const dir = tempApp({ ".env": `AUTH_SECRET="${OLD}"\n`, ".gitignore": ".env\n" });
      chmodSync(join(dir, ".env"), 0o640);
      const rotated = auth(["secret", "--rotate"], dir);
      expect(rotated.code, rotated.stderr).toBe(0);
      expect(mode(dir)).toBe(0o600);
      expect(rotated.stderr).toContain("(mode 0640); it is now 0600");
      expect(rotated.stderr).toContain("Delete AUTH_SECRET from .env: whoever read the file can still sign sessions with it.");
      expect(rotated.stderr).not.toContain("Replace its AUTH_SECRET");
      expect(rotated.stderr).not.toContain(OLD);

      const replaced = tempApp({ ".env": `AUTH_SECRET="${OLD}"\n`, ".gitignore": ".env\n" });
      chmodSync(join(replaced, ".env"), 0o604);
      const run = auth(["secret", "--yes"], replaced);
      expect(run.code, run.stderr).toBe(0);
      expect(mode(replaced)).toBe(0o600);
      expect(readFileSync(join(replaced, ".env"), "utf8")).not.toContain(OLD);
      expect(run.stderr).toContain("Warning: .env was readable by other users of this machine (mode 0604)");
      expect(run.stderr).not.toMatch(/Replace its AUTH_SECRET|Delete AUTH_SECRET/);
    });

    it("another env file (--env-file, --cwd): the same, and a second run has nothing to warn about", () => {
      const dir = tempApp();
      writeFileSync(join(dir, ".env.local"), "A=1\n", { mode: 0o666 });
      chmodSync(join(dir, ".env.local"), 0o666);
      const run = cli(authBin, ["secret", "--cwd", dir, "--env-file", ".env.local"], root);
      expect(run.code, run.stderr).toBe(0);
      expect(statSync(join(dir, ".env.local")).mode & 0o777).toBe(0o600);
      expect(run.stderr).toContain(`Warning: ${join(dir, ".env.local")} was readable by other users of this machine (mode 0666)`);
      expect(auth(["secret", "--rotate", "--env-file", ".env.local"], dir).stderr).not.toContain("Warning");
    });
  });

  it("-y is --yes", () => {
    const dir = tempApp({ ".env": "AUTH_SECRET=old\n" });
    expect(auth(["secret", "-y"], dir).code).toBe(0);
    expect(envSecret(dir)).toMatch(BASE64URL_43);
  });

  it("an empty AUTH_SECRET= counts as none: filled in without --yes", () => {
    const dir = tempApp({ ".env": "A=1\nAUTH_SECRET=\nB=2\n" });
    const run = auth(["secret"], dir);
    expect(run.code).toBe(0);
    expect(readFileSync(join(dir, ".env"), "utf8")).toBe(`A=1\nAUTH_SECRET="${envSecret(dir)}"\nB=2\n`);
    expect(envSecret(dir)).toMatch(BASE64URL_43);
  });

  it("--rotate needs no --yes: writes the new secret where Auth.js's order makes it the one that encrypts, and says how to retire the oldest", () => {
    const dir = tempApp({ ".env": "export AUTH_SECRET=s0\nA=1\n" });
    const run = auth(["secret", "--rotate"], dir);
    expect(run.code, run.stderr).toBe(0);
    const content = readFileSync(join(dir, ".env"), "utf8");
    expect(readEnvValue(content, "AUTH_SECRET")).toBe("s0");
    expect(readEnvValue(content, "AUTH_SECRET_1")).toMatch(BASE64URL_43);
    expect(run.stdout).toContain("Rotated the secret in .env: the new one is AUTH_SECRET_1 and encrypts new sessions from now on.");
    expect(run.stdout).toContain("AUTH_SECRET still decrypts existing sessions.");
    expect(run.stdout).toContain("Once the sessions made with the oldest, AUTH_SECRET, have expired (session.maxAge, 30 days by default), retire it: delete its line from .env.");
    expect(run.stdout).not.toContain(readEnvValue(content, "AUTH_SECRET_1")!);
  });

  it("--rotate with all four set: drops the oldest (AUTH_SECRET), moves the rest down, and says so", () => {
    const dir = tempApp({ ".env": "export AUTH_SECRET=s0\nAUTH_SECRET_1=s1\nAUTH_SECRET_2=s2\nAUTH_SECRET_3=s3\n" });
    const run = auth(["secret", "--rotate"], dir);
    expect(run.code, run.stderr).toBe(0);
    const content = readFileSync(join(dir, ".env"), "utf8");
    expect(["AUTH_SECRET", "AUTH_SECRET_1", "AUTH_SECRET_2"].map((k) => readEnvValue(content, k))).toEqual(["s1", "s2", "s3"]);
    expect(readEnvValue(content, "AUTH_SECRET_3")).toMatch(BASE64URL_43);
    // The oldest is gone (checked by line: the new random secret may contain "s0").
    expect(content.split("\n").filter((line) => line.endsWith("=s0"))).toEqual([]);
    expect(run.stdout).toContain("Removed the oldest, AUTH_SECRET (only four fit): sessions made with it are signed out.");
    expect(run.stdout).toContain("Moved AUTH_SECRET_1 to AUTH_SECRET to make room (same value).");
  });

  it("the doctor's fix for a .env rotated the old way (AUTH_SECRET newest) is the command it prints, and afterwards it is quiet", async () => {
    const { diagnose } = await import("../../src/generators/doctor.js");
    const doctor = (text: string) =>
      diagnose({
        detection: { hasPackageJson: true, frameworks: [] } as never,
        env: Object.fromEntries(["AUTH_SECRET", "AUTH_SECRET_1", "AUTH_SECRET_2", "AUTH_SECRET_3"].flatMap((k) => (readEnvValue(text, k) ? [[k, readEnvValue(text, k)!]] : []))),
        envFileExists: true,
        envText: text,
        gitignore: ".env\n",
        authConfig: null,
        installedRuntime: version,
        cliVersion: version,
        database: { found: false } as never,
      }).filter((f) => /rotate/.test(f.fix ?? ""));
    const newest = "n".repeat(43);
    const older = "o".repeat(43);
    const dir = tempApp({ ".env": `AUTH_SECRET="${newest}"\nAUTH_SECRET_1=${older}\n`, ".gitignore": ".env\n" });
    const [finding, ...rest] = doctor(readFileSync(join(dir, ".env"), "utf8"));
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ level: "warning" });
    expect(finding!.message).toContain("AUTH_SECRET, AUTH_SECRET_1 are set, and AUTH_SECRET_1 encrypts");
    const command = /`npx @gatehouse\/cli (secret --rotate)`/.exec(finding!.fix!)![1]!.split(" ");
    expect(auth(command, dir).code).toBe(0);
    const after = readFileSync(join(dir, ".env"), "utf8");
    expect([readEnvValue(after, "AUTH_SECRET"), readEnvValue(after, "AUTH_SECRET_1")]).toEqual([newest, older]);
    expect(readEnvValue(after, "AUTH_SECRET_2")).toMatch(BASE64URL_43);
    expect(doctor(after)).toEqual([]);

    // All four set the old way: the fix names the line to delete first, so the rotation drops nothing.
    const full = `AUTH_SECRET=${newest}\nAUTH_SECRET_1=${older}\nAUTH_SECRET_2=${"p".repeat(43)}\nAUTH_SECRET_3=${"q".repeat(43)}\n`;
    expect(doctor(full)[0]!.fix).toBe("delete AUTH_SECRET_3 from .env (the oldest under the old order), then run `npx @gatehouse/cli secret --rotate`");
    // A file with one secret, or rotated by the new --rotate, is not flagged.
    expect(doctor(`AUTH_SECRET=${newest}\n`)).toEqual([]);
  });

  it("--rotate without a secret writes one and says there was nothing to rotate", () => {
    const dir = tempApp({ ".env": "A=1\n" });
    const run = auth(["secret", "--rotate"], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Nothing to rotate/);
    expect(envSecret(dir)).toMatch(BASE64URL_43);
    expect(readEnvValue(readFileSync(join(dir, ".env"), "utf8"), "AUTH_SECRET_1")).toBeUndefined();
  });

  it("--cwd picks the app directory, from anywhere", () => {
    const dir = tempApp();
    const run = auth(["secret", "--cwd", dir]);
    expect(run.code).toBe(0);
    expect(envSecret(dir)).toMatch(BASE64URL_43);
    expect(run.stdout).toContain(join(dir, ".env"));
  });

  it("--env-file picks the file, relative to --cwd: edits an existing one, creates a missing one", () => {
    const dir = tempApp({ ".env.local": "A=1\n" });
    const edited = auth(["secret", "--cwd", dir, "--env-file", ".env.local"]);
    expect(edited.code).toBe(0);
    expect(readFileSync(join(dir, ".env.local"), "utf8")).toMatch(/^A=1\nAUTH_SECRET="[A-Za-z0-9_-]{43}"\n$/);
    expect(edited.stdout).toContain(join(dir, ".env.local"));

    const created = auth(["secret", "--cwd", dir, "--env-file=.env.production"]);
    expect(created.code).toBe(0);
    expect(readFileSync(join(dir, ".env.production"), "utf8")).toMatch(/^AUTH_SECRET="[A-Za-z0-9_-]{43}"\n$/);
    expect(entries(dir).sort()).toEqual([".env.local", ".env.production"]);
  });

  it("--file still works as a hidden alias of --env-file", () => {
    const dir = tempApp({ ".env.local": "A=1\n" });
    const run = auth(["secret", "--file", ".env.local"], dir);
    expect(run.code).toBe(0);
    expect(readFileSync(join(dir, ".env.local"), "utf8")).toMatch(/^A=1\nAUTH_SECRET="[A-Za-z0-9_-]{43}"\n$/);
    expect(existsSync(join(dir, ".env"))).toBe(false);
    expect(run.stdout).toContain(".env.local");
  });

  it("--file and --env-file together: fine for the same file, a usage error (exit 2, nothing written) for two", () => {
    const dir = tempApp();
    expect(auth(["secret", "--env-file", ".env.a", "--file", "./.env.a"], dir).code).toBe(0);
    expect(entries(dir)).toEqual([".env.a"]);

    const run = auth(["secret", "--env-file", ".env.b", "--file", ".env.c"], dir);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/--env-file \.env\.b and --file \.env\.c name different files/);
    expect(entries(dir)).toEqual([".env.a"]);
  });

  it("--raw prints only the secret and writes nothing", () => {
    const dir = tempApp();
    const run = auth(["secret", "--raw"], dir);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout).toMatch(/^[A-Za-z0-9_-]{43}\n$/);
    expect(entries(dir)).toEqual([]);
    expect(auth(["secret", "--raw"], dir).stdout).not.toBe(run.stdout);
  });

  it("--raw --rotate is a usage error (exit 2) and writes nothing", () => {
    const dir = tempApp();
    const run = auth(["secret", "--raw", "--rotate"], dir);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/--raw and --rotate cannot be combined/);
    expect(entries(dir)).toEqual([]);
  });

  it("reports a missing --cwd directory with exit 1", () => {
    const run = auth(["secret", "--cwd", join(tempApp(), "missing")]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/does not exist/);
  });

  it("auth-init is `auth init` (only --help here: the flow itself is init's tests' business); each help's usage line names what was typed", () => {
    const viaAuthInit = cli(authInitBin, ["--help"], tempApp());
    const viaAuth = auth(["init", "--help"], tempApp());
    for (const run of [viaAuthInit, viaAuth]) expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(viaAuthInit.stdout).toMatch(/^Usage: auth-init \[options\] \[dir\]\n/);
    expect(viaAuth.stdout).toMatch(/^Usage: auth init \[options\] \[dir\]\n/);
    expect(viaAuthInit.stdout.slice(viaAuthInit.stdout.indexOf("\n"))).toBe(viaAuth.stdout.slice(viaAuth.stdout.indexOf("\n")));
  });

  it.skipIf(isWindows)("the usage line names the bin npm linked: `npx @gatehouse/cli` for the bin npx runs (cli), else the bin's name", () => {
    // npm links each bin as node_modules/.bin/<name> -> bin/auth.js; the link's path is what the bin sees.
    const bins = tempApp({ "package.json": null });
    for (const name of ["cli", "gatehouse", "auth"]) symlinkSync(authBin, join(bins, name));
    expect(cli(join(bins, "cli"), ["init", "--help"], bins).stdout).toMatch(/^Usage: npx @gatehouse\/cli init \[options\] \[dir\]\n/);
    expect(cli(join(bins, "cli"), ["--help"], bins).stdout).toMatch(/^Usage: npx @gatehouse\/cli \[options\] \[command\]\n/);
    expect(cli(join(bins, "gatehouse"), ["secret", "--help"], bins).stdout).toMatch(/^Usage: gatehouse secret \[options\]\n/);
    expect(cli(join(bins, "auth"), ["migrate", "--help"], bins).stdout).toMatch(/^Usage: auth migrate \[options\]\n/);
  });

  it("outside an app (no package.json): refused like the other commands (exit 2, one line naming --cwd and --env-file), nothing written; --raw and an explicit --env-file still work", () => {
    const dir = tempApp({ "package.json": null });
    const run = auth(["secret"], dir);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^error: no package\.json in .*--cwd.*--env-file.*nothing was written\n$/);
    expect(auth(["secret", "--rotate"], dir).code).toBe(2);
    expect(auth(["secret", "--yes"], dir).code).toBe(2);
    expect(readdirSync(dir)).toEqual([]);

    expect(auth(["secret", "--raw"], dir)).toMatchObject({ code: 0, stdout: expect.stringMatching(/^[A-Za-z0-9_-]{43}\n$/) });
    expect(readdirSync(dir)).toEqual([]);
    const explicit = auth(["secret", "--env-file", ".env"], dir);
    expect(explicit.code, explicit.stderr).toBe(0);
    expect(envSecret(dir)).toMatch(BASE64URL_43);
    // --cwd at an app from a folder that is none: the app's .env.
    const app = tempApp();
    expect(auth(["secret", "--cwd", app], dir).code).toBe(0);
    expect(envSecret(app)).toMatch(BASE64URL_43);
  });
});

// Node 20 takes `--env-file` for itself even after the script name and dies on a
// missing file (nodejs/node#54232); the bins' `#!/usr/bin/env -S node --` stops that.
describe.skipIf(isWindows)("the bins run as executables, and --env-file reaches them", () => {
  const exec = (bin: string, args: string[], cwd: string) => {
    const result = spawnSync(bin, args, { cwd, encoding: "utf8", timeout: 20_000, env: childEnv() });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  };

  it("auth secret --env-file <missing file> creates it", () => {
    const dir = tempApp();
    const run = exec(authBin, ["secret", "--env-file", ".env.new"], dir);
    expect(run.stderr).not.toMatch(/^node:/m);
    expect(run.code).toBe(0);
    expect(readFileSync(join(dir, ".env.new"), "utf8")).toMatch(/^AUTH_SECRET="[A-Za-z0-9_-]{43}"\n$/);
    expect(existsSync(join(dir, ".env"))).toBe(false);
  });

  it("auth secret --env-file <existing file> edits it, keeping the rest", () => {
    const dir = tempApp({ ".env.local": "# keep\nA=1\n" });
    const run = exec(authBin, ["secret", "--rotate", "--env-file", ".env.local"], dir);
    expect(run.code).toBe(0);
    const content = readFileSync(join(dir, ".env.local"), "utf8");
    expect(content.startsWith("# keep\nA=1\n")).toBe(true);
    expect(content).toMatch(SECRET_LINE);
  });

  it("auth-init passes --env-file on too: the CLI answers, not Node", () => {
    const run = exec(authInitBin, ["--env-file=missing", "--help"], tempApp());
    expect(run.stderr).not.toMatch(/^node:|not found/m);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: auth-init \[options\]/);
  });
});

// ---- startup: what `auth secret` loads ---------------------------------------

const recordModules = pathToFileURL(join(root, "test/cli/support/record-modules.mjs")).href;
const HEAVY = /[\\/]node_modules[\\/](ts-morph|@ts-morph|handlebars|execa|diff|@clack|svelte)[\\/]/;

/** Runs `auth` with the module recorder preloaded; returns the run and every module it loaded. */
function authRecordingModules(args: string[], cwd: string) {
  const log = join(tempApp(), "modules.log");
  const run = auth(args, cwd, { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import ${recordModules}`.trim(), GATEHOUSE_MODULE_LOG: log });
  return { run, modules: readFileSync(log, "utf8").split("\n").filter(Boolean) };
}

describe("auth secret starts light", () => {
  it.each([
    ["a new .env", [], {}],
    ["--yes over an existing secret", ["--yes"], { ".env": "AUTH_SECRET=old\n" }],
    ["--rotate", ["--rotate"], { ".env": "AUTH_SECRET=old\n" }],
    ["--raw", ["--raw"], {}],
    ["a refusal without a terminal", [], { ".env": "AUTH_SECRET=old\n" }],
  ] as const)("%s loads no ts-morph, handlebars, svelte, execa, diff, @clack/prompts or runtime module", (_, args, files) => {
    const { run, modules } = authRecordingModules(["secret", ...args], tempApp({ ...files }));
    expect(run.stderr).not.toMatch(/^node:|record-modules/m);
    expect([0, 2]).toContain(run.code);
    // The recorder works: it saw our own modules and commander, through both ESM and CommonJS.
    expect(modules).toContainEqual(expect.stringMatching(/dist\/commands\/secret\.js$/));
    expect(modules).toContainEqual(expect.stringMatching(/^file:.*node_modules\/commander\//));
    expect(modules).toContainEqual(expect.stringMatching(/^cjs:.*node_modules[\\/]commander[\\/]lib[\\/]command\.js$/));
    expect(modules.filter((module) => HEAVY.test(module))).toEqual([]);
    // Registering `init` needs its flag choices, not the provider catalog behind its answers.
    expect(modules.filter((module) => /[\\/](runtime[\\/]dist|@gatehouse)[\\/]/.test(module))).toEqual([]);
  });
});

// ---- on a terminal: the question ---------------------------------------------

/**
 * util-linux `script` gives the child a pseudo-terminal (stdin and stdout are TTYs);
 * `-e` returns its exit code. Skipped where it is missing or cannot open a terminal.
 */
/** Runs `auth` on a terminal and types `keys` once the question shows. */
async function authOnTerminal(args: string[], cwd: string, keys: string, env: Record<string, string | undefined> = {}) {
  const run = await onTerminal(authBin, args, cwd, [{ when: "Replace the AUTH_SECRET in .env?", keys }], env);
  return { code: run.code, output: run.output, asked: run.answered === 1 };
}
const SGR_COLOUR = /\x1b\[[\d;]*m/;

describe.runIf(hasScript)("auth secret on a terminal asks before replacing", () => {
  it("'y' replaces the secret; the question is coloured on a colour terminal", async () => {
    const dir = tempApp({ ".env": "A=1\nAUTH_SECRET=old\n", ".gitignore": ".env\n" });
    // CI=true also turns the question's colours off (the prompt library treats CI as a plain log).
    const run = await authOnTerminal(["secret"], dir, "y", { NO_COLOR: undefined, FORCE_COLOR: undefined, CI: undefined });
    expect(run.asked).toBe(true);
    expect(run.code).toBe(0);
    expect(run.output).toMatch(/Replaced AUTH_SECRET in \.env/);
    expect(readFileSync(join(dir, ".env"), "utf8")).toBe(`A=1\nAUTH_SECRET="${envSecret(dir)}"\n`);
    expect(envSecret(dir)).toMatch(BASE64URL_43);
    expect(run.output).toMatch(SGR_COLOUR);
  });

  it("'n' keeps the file byte-identical and exits 1; NO_COLOR turns the colours off", async () => {
    const before = "A=1\nAUTH_SECRET=old\n";
    const dir = tempApp({ ".env": before });
    const run = await authOnTerminal(["secret"], dir, "n", { NO_COLOR: "1", FORCE_COLOR: undefined });
    expect(run.asked).toBe(true);
    expect(run.code).toBe(1);
    expect(run.output).toMatch(/kept the existing AUTH_SECRET in \.env; nothing was changed/);
    expect(readFileSync(join(dir, ".env"), "utf8")).toBe(before);
    expect(run.output).not.toMatch(SGR_COLOUR);
  });

  it("Ctrl-C is a cancel: nothing changed, exit 1", async () => {
    const before = "AUTH_SECRET=old\n";
    const dir = tempApp({ ".env": before });
    const run = await authOnTerminal(["secret"], dir, "\x03");
    expect(run.asked).toBe(true);
    expect(run.code).toBe(1);
    expect(run.output).toMatch(/nothing was changed/);
    expect(readFileSync(join(dir, ".env"), "utf8")).toBe(before);
  });

  it("--yes and --rotate do not ask, even on a terminal", async () => {
    for (const flag of ["--yes", "--rotate"]) {
      const dir = tempApp({ ".env": "AUTH_SECRET=old\n" });
      const run = await authOnTerminal(["secret", flag], dir, "n");
      expect(run).toMatchObject({ code: 0, asked: false });
      // --yes replaced AUTH_SECRET; --rotate kept it and added AUTH_SECRET_1, which encrypts.
      expect(readEnvValue(readFileSync(join(dir, ".env"), "utf8"), flag === "--yes" ? "AUTH_SECRET" : "AUTH_SECRET_1")).toMatch(BASE64URL_43);
    }
  });

  it("only the question loads @clack/prompts (the recorder above would see it)", async () => {
    const dir = tempApp({ ".env": "AUTH_SECRET=old\n" });
    const log = join(tempApp(), "modules.log");
    const run = await authOnTerminal(["secret"], dir, "n", {
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import ${recordModules}`.trim(),
      GATEHOUSE_MODULE_LOG: log,
    });
    expect(run).toMatchObject({ code: 1, asked: true });
    expect(readFileSync(log, "utf8")).toMatch(/node_modules\/@clack\/prompts\//);
  });
});
