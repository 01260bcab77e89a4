/**
 * Packing this checkout's runtime and CLI into an app (auth-init run from a
 * checkout): with GATEHOUSE_PACK_CACHE naming a folder, as the test run does
 * after its one build, each tarball is packed once and later apps get a copy
 * of the same bytes; without it, every app packs its own.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { gatehouseSources, packInto, PACK_CACHE_ENV } from "../../src/engine/runtime-link.js";

describe("packInto", () => {
  const made: string[] = [];
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), "gatehouse-pack-test-"));
    made.push(dir);
    return dir;
  };
  const saved = process.env[PACK_CACHE_ENV];
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
    if (saved === undefined) delete process.env[PACK_CACHE_ENV];
    else process.env[PACK_CACHE_ENV] = saved;
  });

  it("with a cache folder: packed once into it, then copied byte for byte into each app", async () => {
    const cache = folder();
    process.env[PACK_CACHE_ENV] = cache;
    const sources = gatehouseSources(undefined, "0.1.0");
    const first = await packInto(folder(), sources);
    expect(readdirSync(cache).sort()).toEqual(["gatehouse-cli-0.1.0.tgz", "gatehouse-runtime-0.1.0.tgz"]);
    const packedAt = statSync(join(cache, "gatehouse-runtime-0.1.0.tgz")).mtimeMs;
    const second = await packInto(folder(), sources);
    expect(statSync(join(cache, "gatehouse-runtime-0.1.0.tgz")).mtimeMs).toBe(packedAt);
    expect(second.map((path) => readFileSync(path))).toEqual(first.map((path) => readFileSync(path)));
  }, 60_000);

  it("without one: each app's own pack, nothing kept elsewhere", async () => {
    delete process.env[PACK_CACHE_ENV];
    const written = await packInto(folder(), gatehouseSources(undefined, "0.1.0"));
    expect(written.map((path) => path.split("/").pop())).toEqual(["gatehouse-runtime-0.1.0.tgz", "gatehouse-cli-0.1.0.tgz"]);
  }, 60_000);
});
