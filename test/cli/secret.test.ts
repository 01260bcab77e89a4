/**
 * `auth secret`: the pure dotenv edit as input/output fixtures, then the real
 * built CLI run as a child process in temp directories.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEnvValue } from "../../src/generators/dotenv.js";
import { generateSecret, setAuthSecret } from "../../src/generators/secret.js";

const NEW = "NEW_SECRET";
const BASE64URL_43 = /^[A-Za-z0-9_-]{43}$/;
const plain = (content: string) => setAuthSecret(content, NEW, { rotate: false });
const rotate = (content: string) => setAuthSecret(content, NEW, { rotate: true });

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
    expect(plain("")).toEqual({ content: `AUTH_SECRET="${NEW}"\n`, change: "added", droppedOldest: false });
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

  it("treats an empty AUTH_SECRET as no secret", () => {
    expect(plain("AUTH_SECRET=\n")).toMatchObject({ content: `AUTH_SECRET="${NEW}"\n`, change: "added" });
    expect(rotate("AUTH_SECRET=''\n")).toMatchObject({ content: `AUTH_SECRET="${NEW}"\n`, change: "added" });
  });

  it("drops shadowed duplicates, editing the copy dotenv actually loads", () => {
    expect(plain("AUTH_SECRET=stale\nA=1\nAUTH_SECRET=live\n").content).toBe(`A=1\nAUTH_SECRET="${NEW}"\n`);
    expect(rotate("AUTH_SECRET=stale\nA=1\nAUTH_SECRET=live\n").content).toBe(
      `A=1\nAUTH_SECRET="${NEW}"\nAUTH_SECRET_1=live\n`,
    );
  });

  it("leaves a commented-out secret alone", () => {
    expect(plain("# AUTH_SECRET=old\n").content).toBe(`# AUTH_SECRET=old\nAUTH_SECRET="${NEW}"\n`);
  });

  describe("rotation", () => {
    it.each([
      ["AUTH_SECRET=old", "AUTH_SECRET_1=old"],
      ['AUTH_SECRET="old"', 'AUTH_SECRET_1="old"'],
      ["AUTH_SECRET='old'", "AUTH_SECRET_1='old'"],
      ["export AUTH_SECRET=old", "export AUTH_SECRET_1=old"],
    ])("keeps %s as %s, value byte-identical", (line, kept) => {
      const edit = rotate(`A=1\n${line}\n`);
      const prefix = line.startsWith("export ") ? "export " : "";
      expect(edit.content).toBe(`A=1\n${prefix}AUTH_SECRET="${NEW}"\n${kept}\n`);
      expect(edit.change).toBe("rotated");
      expect(readEnvValue(edit.content, "AUTH_SECRET_1")).toBe("old");
    });

    it("shifts _1 to _2 and _2 to _3", () => {
      const edit = rotate("AUTH_SECRET=s0\nAUTH_SECRET_1=s1\nAUTH_SECRET_2=s2\n");
      expect(edit.content).toBe(`AUTH_SECRET="${NEW}"\nAUTH_SECRET_1=s0\nAUTH_SECRET_2=s1\nAUTH_SECRET_3=s2\n`);
      expect(edit.droppedOldest).toBe(false);
    });

    it("drops the previous _3", () => {
      const before = "AUTH_SECRET=s0\n# older\nAUTH_SECRET_1=s1\nAUTH_SECRET_2=s2\nAUTH_SECRET_3=s3\nZ=1\n";
      const edit = rotate(before);
      expect(edit.content).toBe(
        `AUTH_SECRET="${NEW}"\nAUTH_SECRET_1=s0\n# older\nAUTH_SECRET_2=s1\nAUTH_SECRET_3=s2\nZ=1\n`,
      );
      expect(edit.droppedOldest).toBe(true);
    });

    it("without a current secret behaves like a plain write and shifts nothing", () => {
      const edit = rotate("AUTH_SECRET_1=s1\n");
      expect(edit).toEqual({ content: `AUTH_SECRET_1=s1\nAUTH_SECRET="${NEW}"\n`, change: "added", droppedOldest: false });
    });
  });

  describe("line endings", () => {
    it("keeps CRLF and uses it for new lines", () => {
      expect(rotate("A=1\r\nAUTH_SECRET=old\r\nB=2\r\n").content).toBe(
        `A=1\r\nAUTH_SECRET="${NEW}"\r\nAUTH_SECRET_1=old\r\nB=2\r\n`,
      );
      expect(plain("A=1\r\n# c\r\n").content).toBe(`A=1\r\n# c\r\nAUTH_SECRET="${NEW}"\r\n`);
    });

    it("keeps a missing final newline on a rotated last line", () => {
      expect(rotate("A=1\nAUTH_SECRET=old").content).toBe(`A=1\nAUTH_SECRET="${NEW}"\nAUTH_SECRET_1=old`);
    });

    it("keeps a byte-order mark", () => {
      expect(plain("\uFEFFAUTH_SECRET=old\n").content).toBe(`\uFEFFAUTH_SECRET="${NEW}"\n`);
    });
  });
});

// ---- the real CLI, built from src/ ------------------------------------------

const root = fileURLToPath(new URL("../../", import.meta.url));
const authBin = join(root, "bin/auth.js");
const authInitBin = join(root, "bin/auth-init.js");
const version = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;
const dirs: string[] = [];

function tempApp(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "gatehouse-secret-"));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

function cli(bin: string, args: string[], cwd: string = root) {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: "utf8", timeout: 20_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
const auth = (args: string[], cwd?: string) => cli(authBin, args, cwd);
const envSecret = (dir: string, file = ".env") => readEnvValue(readFileSync(join(dir, file), "utf8"), "AUTH_SECRET");

describe("auth CLI (built)", () => {
  beforeAll(() => {
    // Once per run, not per test: the bins import dist/, so build src/ first.
    execFileSync("npx", ["tsc", "-p", "tsconfig.build.json"], { cwd: root, stdio: "pipe", timeout: 120_000 });
  }, 120_000);
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("--help lists the commands; --version prints package.json's version", () => {
    const help = auth(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: auth");
    expect(help.stdout).toMatch(/secret/);
    expect(help.stdout).toMatch(/init \[dir\]/);
    expect(auth(["secret", "--help"]).stdout).toMatch(/--raw[\s\S]*--rotate[\s\S]*--file <path>[\s\S]*--cwd <dir>/);
    expect(auth(["--version"])).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  it("creates .env owner-only, says where, never prints the secret, hints about .gitignore", () => {
    const dir = tempApp();
    const run = auth(["secret"], dir);
    expect(run.code).toBe(0);
    const secret = envSecret(dir);
    expect(secret).toMatch(BASE64URL_43);
    expect(readFileSync(join(dir, ".env"), "utf8")).toBe(`AUTH_SECRET="${secret}"\n`);
    if (process.platform !== "win32") expect(statSync(join(dir, ".env")).mode & 0o777).toBe(0o600);
    expect(run.stdout).toContain(".env");
    expect(run.stdout + run.stderr).not.toContain(secret);
    expect(run.stderr).toMatch(/not listed in .*\.gitignore/);
  });

  it("gives no .gitignore hint when .env is ignored", () => {
    const dir = tempApp({ ".gitignore": "node_modules\n.env*\n" });
    expect(auth(["secret"], dir)).toMatchObject({ code: 0, stderr: "" });
  });

  it("replaces the secret in an existing file, keeping everything else and the file's mode", () => {
    const before = "# app\r\nDATABASE_URL=postgres://db\r\nAUTH_SECRET='old'\r\nTAIL=1\r\n";
    const dir = tempApp({ ".env": before });
    chmodSync(join(dir, ".env"), 0o640);
    const run = auth(["secret"], dir);
    expect(run.code).toBe(0);
    const secret = envSecret(dir);
    expect(secret).toMatch(BASE64URL_43);
    expect(readFileSync(join(dir, ".env"), "utf8")).toBe(before.replace("AUTH_SECRET='old'", `AUTH_SECRET="${secret}"`));
    expect(run.stdout).toMatch(/Replaced AUTH_SECRET in \.env/);
    if (process.platform !== "win32") expect(statSync(join(dir, ".env")).mode & 0o777).toBe(0o640);
  });

  it("--rotate keeps the old secret as AUTH_SECRET_1 and shifts older ones", () => {
    const dir = tempApp({ ".env": "export AUTH_SECRET=s0\nAUTH_SECRET_1=s1\nAUTH_SECRET_2=s2\nAUTH_SECRET_3=s3\n" });
    const run = auth(["secret", "--rotate"], dir);
    expect(run.code).toBe(0);
    const content = readFileSync(join(dir, ".env"), "utf8");
    expect(readEnvValue(content, "AUTH_SECRET")).toMatch(BASE64URL_43);
    expect(["AUTH_SECRET_1", "AUTH_SECRET_2", "AUTH_SECRET_3"].map((k) => readEnvValue(content, k))).toEqual(["s0", "s1", "s2"]);
    expect(content).not.toContain("s3");
    expect(run.stdout).toMatch(/Rotated AUTH_SECRET in \.env.*AUTH_SECRET_3/);
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

  it("--file picks the file", () => {
    const dir = tempApp({ ".env.local": "A=1\n" });
    const run = auth(["secret", "--file", ".env.local"], dir);
    expect(run.code).toBe(0);
    expect(readFileSync(join(dir, ".env.local"), "utf8")).toMatch(/^A=1\nAUTH_SECRET="[A-Za-z0-9_-]{43}"\n$/);
    expect(existsSync(join(dir, ".env"))).toBe(false);
    expect(run.stdout).toContain(".env.local");
  });

  it("--raw prints only the secret and writes nothing", () => {
    const dir = tempApp();
    const run = auth(["secret", "--raw"], dir);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout).toMatch(/^[A-Za-z0-9_-]{43}\n$/);
    expect(readdirSync(dir)).toEqual([]);
    expect(auth(["secret", "--raw"], dir).stdout).not.toBe(run.stdout);
  });

  it("--raw --rotate is an error (exit 1) and writes nothing", () => {
    const dir = tempApp();
    const run = auth(["secret", "--raw", "--rotate"], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/--raw and --rotate cannot be combined/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("reports a missing --cwd directory with exit 1", () => {
    const run = auth(["secret", "--cwd", join(tempApp(), "missing")]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/does not exist/);
  });

  it("auth-init says it is not available yet and exits 1", () => {
    for (const run of [cli(authInitBin, ["--yes"]), auth(["init", "app"])]) {
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split("\n")).toEqual([expect.stringMatching(/auth-init is not yet available/)]);
    }
  });
});

describe("--file creates a missing file", () => {
  it("writes a new env file named by --file under --cwd", () => {
    const dir = tempApp();
    const run = auth(["secret", "--cwd", dir, "--file", ".env.production"], tmpdir());
    expect(run.code).toBe(0);
    expect(readFileSync(join(dir, ".env.production"), "utf8")).toMatch(/^AUTH_SECRET="[A-Za-z0-9_-]{43}"\n$/);
  });
});
