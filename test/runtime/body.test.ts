/**
 * POST bodies: only URL-encoded forms and JSON objects, at most 64 KiB, each field
 * once, valid UTF-8. Every rejection is a 4xx JSON answer that stores nothing.
 */
import { describe, expect, it, vi } from "vitest";
import { Auth, type AuthConfig } from "@gatehouse/runtime";
import { Credentials } from "@gatehouse/runtime/providers";
import {
  ORIGIN,
  USER,
  CookieJar,
  call,
  credentialsConfig,
  csrfToken,
  fetchSession,
  locationOf,
  request,
  storesSession,
} from "../helpers.js";

const LIMIT = 64 * 1024;
const FORM = "application/x-www-form-urlencoded";
const JSON_TYPE = "application/json";
const POST_PATHS = ["/auth/callback/credentials", "/auth/session", "/auth/signout", "/auth/signin"];

interface RawOptions {
  jar?: CookieJar;
  contentType?: string;
  contentLength?: string;
  stream?: boolean;
  headers?: Record<string, string>;
}

/** POSTs `body` exactly as given (string or bytes), optionally as a chunked stream. */
async function rawPost(config: AuthConfig, path: string, body: string | Uint8Array<ArrayBuffer> | null, options: RawOptions = {}) {
  const headers = new Headers(options.headers);
  if (options.contentType !== undefined) headers.set("content-type", options.contentType);
  if (options.contentLength !== undefined) headers.set("content-length", options.contentLength);
  if (options.jar && options.jar.cookies.size > 0) headers.set("cookie", options.jar.header());
  let init: RequestInit & { duplex?: "half" } = { method: "POST", headers };
  if (body !== null) {
    const bytes: Uint8Array<ArrayBuffer> = typeof body === "string" ? new TextEncoder().encode(body) : body;
    if (options.stream) {
      const chunk = 8 * 1024;
      let offset = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (offset >= bytes.byteLength) return controller.close();
          controller.enqueue(bytes.slice(offset, offset + chunk));
          offset += chunk;
        },
      });
      init = { ...init, body: stream, duplex: "half" };
    } else {
      init = { ...init, body: bytes };
    }
  }
  const response = await Auth(new Request(`${ORIGIN}${path}`, init), config as Omit<AuthConfig, "raw">);
  options.jar?.store(response);
  return response;
}

async function expectJsonError(response: Response, status: number, messagePart?: string | RegExp) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toContain("application/json");
  expect(response.headers.get("location")).toBeNull();
  const body = (await response.json()) as { error: string; message: string };
  expect(typeof body.error).toBe("string");
  expect(typeof body.message).toBe("string");
  expect(body.message.length).toBeGreaterThan(0);
  if (messagePart !== undefined) expect(body.message).toMatch(messagePart);
  expect(storesSession(response)).toBe(false);
  return body;
}

/** A config with a spy `authorize` that would accept anyone. */
function spyConfig() {
  const authorize = vi.fn((_c: any) => ({ ...USER }));
  const config = credentialsConfig({ providers: [Credentials({ authorize })] });
  return { authorize, config };
}

async function withCsrf(config: AuthConfig) {
  const jar = new CookieJar();
  const token = await csrfToken(config, jar);
  return { jar, token };
}

describe("content type", () => {
  it.each(POST_PATHS)("text/plain → 415 JSON on %s", async (path) => {
    const { authorize, config } = spyConfig();
    const { jar, token } = await withCsrf(config);
    const response = await rawPost(config, path, `username=ada&password=x&csrfToken=${token}`, { jar, contentType: "text/plain" });
    await expectJsonError(response, 415, /text\/plain/);
    expect(authorize).not.toHaveBeenCalled();
  });

  it.each([
    ["multipart/form-data; boundary=x", "--x\r\nContent-Disposition: form-data; name=\"username\"\r\n\r\nada\r\n--x--\r\n"],
    ["application/xml", "<a/>"],
    ["text/html", "<p>hi</p>"],
  ])("%s → 415", async (type, body) => {
    const { authorize, config } = spyConfig();
    const { jar } = await withCsrf(config);
    await expectJsonError(await rawPost(config, "/auth/callback/credentials", body, { jar, contentType: type }), 415);
    expect(authorize).not.toHaveBeenCalled();
  });

  it("a non-empty body without Content-Type → 415", async () => {
    const { config } = spyConfig();
    await expectJsonError(await rawPost(config, "/auth/callback/credentials", new TextEncoder().encode("username=ada")), 415);
  });

  it("content types are matched case-insensitively and with parameters", async () => {
    const { config } = spyConfig();
    const { jar, token } = await withCsrf(config);
    const form = new URLSearchParams({ username: "ada", password: "x", csrfToken: token }).toString();
    const response = await rawPost(config, "/auth/callback/credentials", form, { jar, contentType: "Application/X-WWW-Form-Urlencoded; charset=UTF-8" });
    expect(response.status).toBe(302);
    expect(storesSession(response)).toBe(true);
  });
});

describe("JSON", () => {
  it.each([
    ["truncated", '{"username": "ada"'],
    ["single quotes", "{'username': 'ada'}"],
    ["trailing comma", '{"username": "ada",}'],
    ["bare word", "hello"],
  ])("invalid JSON (%s) → 400 JSON", async (_name, text) => {
    const { authorize, config } = spyConfig();
    const { jar } = await withCsrf(config);
    await expectJsonError(await rawPost(config, "/auth/callback/credentials", text, { jar, contentType: JSON_TYPE }), 400, /JSON/);
    expect(authorize).not.toHaveBeenCalled();
  });

  it.each([
    ["an array", "[]"],
    ["an array of objects", '[{"username":"ada"}]'],
    ["null", "null"],
    ["a string", '"username=ada"'],
    ["a number", "42"],
    ["true", "true"],
  ])("a JSON body that is %s → 400", async (_name, text) => {
    const { authorize, config } = spyConfig();
    const { jar } = await withCsrf(config);
    for (const path of POST_PATHS) {
      await expectJsonError(await rawPost(config, path, text, { jar, contentType: JSON_TYPE }), 400, /object/);
    }
    expect(authorize).not.toHaveBeenCalled();
  });

  it("__proto__ keys do not pollute prototypes and stay plain data", async () => {
    const authorize = vi.fn((_c: any) => ({ ...USER }));
    const config = credentialsConfig({ providers: [Credentials({ authorize })] });
    const { jar, token } = await withCsrf(config);
    const text = `{"__proto__": {"polluted": true, "csrfToken": "${token}"}, "constructor": {"prototype": {"polluted2": true}}, "username": "ada", "password": "x", "csrfToken": "${token}"}`;
    const response = await rawPost(config, "/auth/callback/credentials", text, { jar, contentType: JSON_TYPE });

    expect(({} as any).polluted).toBeUndefined();
    expect(({} as any).polluted2).toBeUndefined();
    expect((Object.prototype as any).polluted).toBeUndefined();
    expect(response.status).toBe(302);
    expect(authorize).toHaveBeenCalledTimes(1);
    const credentials = authorize.mock.calls[0]![0];
    expect(Object.getPrototypeOf(credentials) === Object.prototype || Object.getPrototypeOf(credentials) === null).toBe(true);
    expect(credentials.polluted).toBeUndefined();
    expect(credentials.username).toBe("ada");
  });

  it("a csrfToken hidden only under __proto__ does not pass the CSRF check", async () => {
    const { authorize, config } = spyConfig();
    const { jar, token } = await withCsrf(config);
    const text = `{"__proto__": {"csrfToken": "${token}"}, "username": "ada", "password": "x"}`;
    const response = await rawPost(config, "/auth/callback/credentials", text, { jar, contentType: JSON_TYPE });
    expect(response.status).toBe(302);
    expect(locationOf(response).searchParams.get("error")).toBe("MissingCSRF");
    expect(authorize).not.toHaveBeenCalled();
    expect(storesSession(response)).toBe(false);
    expect(({} as any).csrfToken).toBeUndefined();
  });

  it("__proto__ as a form field is plain data too", async () => {
    const { authorize, config } = spyConfig();
    const { jar, token } = await withCsrf(config);
    const form = `__proto__=x&__proto__%5Bpolluted%5D=1&username=ada&password=x&csrfToken=${token}`;
    const response = await rawPost(config, "/auth/callback/credentials", form, { jar, contentType: FORM });
    expect(({} as any).polluted).toBeUndefined();
    expect(response.status).toBe(302);
    expect(authorize).toHaveBeenCalledTimes(1);
  });
});

describe("size limit", () => {
  function formOfSize(token: string, size: number): string {
    const head = `username=ada&password=x&csrfToken=${token}&pad=`;
    return head + "a".repeat(size - head.length);
  }
  function jsonOfSize(token: string, size: number): string {
    const head = `{"username":"ada","password":"x","csrfToken":"${token}","pad":"`;
    return head + "a".repeat(size - head.length - 2) + '"}';
  }

  const cases = [
    ["form", FORM, formOfSize],
    ["JSON", JSON_TYPE, jsonOfSize],
  ] as const;

  describe.each(cases)("%s body", (_name, type, build) => {
    it("over 64 KiB with Content-Length → 413 JSON", async () => {
      const { authorize, config } = spyConfig();
      const { jar, token } = await withCsrf(config);
      const body = build(token, LIMIT + 1000);
      const response = await rawPost(config, "/auth/callback/credentials", body, { jar, contentType: type, contentLength: String(body.length) });
      await expectJsonError(response, 413);
      expect(authorize).not.toHaveBeenCalled();
    });

    it("over 64 KiB without Content-Length → 413 JSON", async () => {
      const { authorize, config } = spyConfig();
      const { jar, token } = await withCsrf(config);
      const response = await rawPost(config, "/auth/callback/credentials", build(token, LIMIT + 1000), { jar, contentType: type });
      await expectJsonError(response, 413);
      expect(authorize).not.toHaveBeenCalled();
    });

    it("over 64 KiB as a stream without Content-Length → 413 JSON", async () => {
      const { authorize, config } = spyConfig();
      const { jar, token } = await withCsrf(config);
      const response = await rawPost(config, "/auth/callback/credentials", build(token, 5 * LIMIT), { jar, contentType: type, stream: true });
      await expectJsonError(response, 413);
      expect(authorize).not.toHaveBeenCalled();
    });

    it("one byte over the limit → 413", async () => {
      const { config } = spyConfig();
      const { jar, token } = await withCsrf(config);
      await expectJsonError(await rawPost(config, "/auth/callback/credentials", build(token, LIMIT + 1), { jar, contentType: type }), 413);
    });

    it("exactly 64 KiB is accepted", async () => {
      const { authorize, config } = spyConfig();
      const { jar, token } = await withCsrf(config);
      const body = build(token, LIMIT);
      expect(new TextEncoder().encode(body).byteLength).toBe(LIMIT);
      const response = await rawPost(config, "/auth/callback/credentials", body, { jar, contentType: type, stream: true });
      expect(response.status).toBe(302);
      expect(authorize).toHaveBeenCalledTimes(1);
      expect(storesSession(response)).toBe(true);
    });
  });

  it("the limit counts bytes, not characters", async () => {
    const { config } = spyConfig();
    const { jar, token } = await withCsrf(config);
    // 40,000 "é" are 40,000 characters but 80,000 bytes.
    const body = JSON.stringify({ username: "ada", password: "x", csrfToken: token, pad: "é".repeat(40_000) });
    expect(body.length).toBeLessThan(LIMIT);
    await expectJsonError(await rawPost(config, "/auth/callback/credentials", body, { jar, contentType: JSON_TYPE }), 413);
  });

  it("a Content-Length that understates the body does not get past the limit", async () => {
    const { config } = spyConfig();
    const { jar, token } = await withCsrf(config);
    const response = await rawPost(config, "/auth/callback/credentials", formOfSize(token, 2 * LIMIT), { jar, contentType: FORM, stream: true, contentLength: "100" });
    await expectJsonError(response, 413);
  });

  it("a declared Content-Length over the limit is refused before reading", async () => {
    const { config } = spyConfig();
    const { jar, token } = await withCsrf(config);
    const small = `username=ada&password=x&csrfToken=${token}`;
    const response = await rawPost(config, "/auth/callback/credentials", small, { jar, contentType: FORM, contentLength: String(10 * LIMIT) });
    await expectJsonError(response, 413);
  });

  it.each(POST_PATHS)("applies to %s too", async (path) => {
    const config = credentialsConfig();
    const jar = new CookieJar();
    const token = await csrfToken(config, jar);
    await expectJsonError(await rawPost(config, path, formOfSize(token, LIMIT + 10), { jar, contentType: FORM }), 413);
  });

  it("a rejected oversized update does not touch an existing session", async () => {
    const config = credentialsConfig();
    const jar = new CookieJar();
    const signIn = await call(config, "/auth/callback/credentials", {
      jar,
      form: { username: "ada", password: "correct horse", csrfToken: await csrfToken(config, jar) },
    });
    expect(storesSession(signIn)).toBe(true);
    const token = await csrfToken(config, jar);
    const body = JSON.stringify({ csrfToken: token, data: { name: "x".repeat(LIMIT) } });
    const response = await rawPost(config, "/auth/session", body, { jar, contentType: JSON_TYPE });
    await expectJsonError(response, 413);
    expect(response.headers.getSetCookie()).toEqual([]);
    expect((await fetchSession(config, jar)).body.user.name).toBe(USER.name);
  });
});

describe("form fields", () => {
  it("a duplicated field → 400 naming the field", async () => {
    const { authorize, config } = spyConfig();
    const { jar, token } = await withCsrf(config);
    const body = await expectJsonError(
      await rawPost(config, "/auth/callback/credentials", `username=a&username=b&password=x&csrfToken=${token}`, { jar, contentType: FORM }),
      400,
      /"username"/,
    );
    expect(body.message).not.toContain(token);
    expect(authorize).not.toHaveBeenCalled();
  });

  it("a duplicated csrfToken → 400 naming csrfToken", async () => {
    const { authorize, config } = spyConfig();
    const { jar, token } = await withCsrf(config);
    await expectJsonError(
      await rawPost(config, "/auth/callback/credentials", `username=ada&password=x&csrfToken=${token}&csrfToken=${token}`, { jar, contentType: FORM }),
      400,
      /"csrfToken"/,
    );
    expect(authorize).not.toHaveBeenCalled();
  });

  it("a duplicated callbackUrl on sign-out → 400, session kept", async () => {
    const config = credentialsConfig();
    const jar = new CookieJar();
    await call(config, "/auth/callback/credentials", {
      jar,
      form: { username: "ada", password: "correct horse", csrfToken: await csrfToken(config, jar) },
    });
    const token = await csrfToken(config, jar);
    const response = await rawPost(config, "/auth/signout", `csrfToken=${token}&callbackUrl=%2Fa&callbackUrl=https%3A%2F%2Fevil.com`, { jar, contentType: FORM });
    await expectJsonError(response, 400, /"callbackUrl"/);
    expect(response.headers.getSetCookie()).toEqual([]);
    expect((await fetchSession(config, jar)).body).not.toBeNull();
  });

  it("a field that differs only by encoding counts as a duplicate", async () => {
    const { config } = spyConfig();
    const { jar, token } = await withCsrf(config);
    await expectJsonError(
      await rawPost(config, "/auth/callback/credentials", `username=a&user%6Eame=b&password=x&csrfToken=${token}`, { jar, contentType: FORM }),
      400,
      /"username"/,
    );
  });
});

describe("encoding", () => {
  it.each([
    ["form", FORM, (token: string) => [...new TextEncoder().encode(`password=x&csrfToken=${token}&username=`), 0xff, 0xfe]],
    ["JSON", JSON_TYPE, (token: string) => [...new TextEncoder().encode(`{"csrfToken":"${token}","username":"`), 0xc3, 0x28, ...new TextEncoder().encode('"}')]],
    ["form with an overlong encoding", FORM, (token: string) => [...new TextEncoder().encode(`csrfToken=${token}&username=`), 0xc0, 0xaf]],
    ["form with a lone surrogate encoding", FORM, (token: string) => [...new TextEncoder().encode(`csrfToken=${token}&username=`), 0xed, 0xa0, 0x80]],
  ])("invalid UTF-8 bytes in a %s body → 400", async (_name, type, build) => {
    const { authorize, config } = spyConfig();
    const { jar, token } = await withCsrf(config);
    const response = await rawPost(config, "/auth/callback/credentials", new Uint8Array(build(token)), { jar, contentType: type });
    await expectJsonError(response, 400, /UTF-8/);
    expect(authorize).not.toHaveBeenCalled();
  });

  it("valid non-ASCII UTF-8 is passed through intact", async () => {
    const { authorize, config } = spyConfig();
    const { jar, token } = await withCsrf(config);
    const response = await rawPost(config, "/auth/callback/credentials", JSON.stringify({ username: "Zoë 🦄", password: "ß", csrfToken: token }), {
      jar,
      contentType: JSON_TYPE,
    });
    expect(response.status).toBe(302);
    expect(authorize.mock.calls[0]![0]).toEqual({ username: "Zoë 🦄", password: "ß" });
  });
});

describe("empty bodies", () => {
  it("an empty POST to /auth/signout → MissingCSRF redirect, session kept", async () => {
    const config = credentialsConfig();
    const jar = new CookieJar();
    await call(config, "/auth/callback/credentials", {
      jar,
      form: { username: "ada", password: "correct horse", csrfToken: await csrfToken(config, jar) },
    });
    for (const [body, contentType] of [[null, undefined], ["", FORM], ["", JSON_TYPE], ["", "text/plain"]] as const) {
      const response = await rawPost(config, "/auth/signout", body, { jar, contentType });
      expect(response.status).toBe(302);
      const location = locationOf(response);
      expect(location.pathname).toBe("/auth/signin");
      expect(location.searchParams.get("error")).toBe("MissingCSRF");
      expect(response.headers.getSetCookie().filter((c) => c.startsWith("authjs.session-token"))).toEqual([]);
    }
    expect((await fetchSession(config, jar)).body?.user?.email).toBe(USER.email);
  });

  it("an empty POST to the credentials callback → MissingCSRF, authorize not called", async () => {
    const { authorize, config } = spyConfig();
    const { jar } = await withCsrf(config);
    const response = await rawPost(config, "/auth/callback/credentials", null, { jar });
    expect(locationOf(response).searchParams.get("error")).toBe("MissingCSRF");
    expect(authorize).not.toHaveBeenCalled();
    expect(storesSession(response)).toBe(false);
  });

  it("an empty POST to /auth/session → 400 MissingCSRF JSON", async () => {
    const { config } = spyConfig();
    const { jar } = await withCsrf(config);
    const body = await expectJsonError(await rawPost(config, "/auth/session", null, { jar }), 400);
    expect(body.error).toBe("MissingCSRF");
  });
});

describe("paths and methods", () => {
  it.each([
    ["PUT", "/auth/session"],
    ["DELETE", "/auth/signout"],
    ["POST", "/auth/csrf"],
    ["POST", "/auth/providers"],
    ["POST", "/auth/error"],
  ])("%s %s → 400 JSON", async (method, path) => {
    const response = await Auth(new Request(`${ORIGIN}${path}`, { method }), credentialsConfig() as Omit<AuthConfig, "raw">);
    await expectJsonError(response, 400);
  });

  it.each(["/auth/nope", "/auth/", "/auth/callback/credentials/extra", "/other/session", "/auth//session"])(
    "%s → 400 JSON",
    async (path) => {
      await expectJsonError(await call(credentialsConfig(), path), 400);
    },
  );
});

describe("bodies that cannot be read", () => {
  it("a body already consumed before the handler is a 400, not a crash", async () => {
    const req = request("/auth/callback/credentials", { form: { username: "ada" } });
    await req.text();
    const response = await Auth(req, credentialsConfig());
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(/already read/);
  });

  it("a body stream that fails midway is a 400", async () => {
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error("connection reset"));
      },
    });
    const req = new Request(`${ORIGIN}/auth/callback/credentials`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body,
      duplex: "half",
    } as RequestInit);
    const response = await Auth(req, credentialsConfig());
    expect(response.status).toBe(400);
    expect(response.headers.getSetCookie()).toEqual([]);
  });
});
