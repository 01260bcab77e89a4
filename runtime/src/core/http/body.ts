/**
 * Reads the body of a POST: URL-encoded form or JSON object, at most
 * `MAX_BODY_BYTES`, each field at most once. Anything else is an `InvalidRequest`
 * with the status that fits (400, 413, 415).
 */
import { InvalidRequest } from "../errors/errors.js";

/** Auth forms are small; a larger body is a mistake or an attack. */
const MAX_BODY_BYTES = 64 * 1024;

export type RequestBody = Record<string, unknown>;

export async function readBody(request: Request): Promise<RequestBody> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const text = await readText(request);
  if (text.length === 0) return {};
  if (type === "application/x-www-form-urlencoded") return parseForm(text);
  if (type === "application/json") return parseJson(text);
  throw new InvalidRequest(
    `Content-Type ${JSON.stringify(type || "(none)")} is not accepted; send application/x-www-form-urlencoded or application/json.`,
    415,
  );
}

async function readText(request: Request): Promise<string> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) throw tooLarge();
  if (!request.body) return "";
  if (request.bodyUsed) throw new InvalidRequest("The request body was already read before it reached the auth handler.");
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      throw new InvalidRequest("The request body could not be read (the client may have gone away).");
    }
    const { done, value } = chunk;
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new InvalidRequest("The request body is not valid UTF-8.");
  }
}

function tooLarge(): InvalidRequest {
  return new InvalidRequest(`The request body is larger than ${MAX_BODY_BYTES} bytes.`, 413);
}

function parseForm(text: string): RequestBody {
  const body: RequestBody = Object.create(null);
  for (const [key, value] of new URLSearchParams(text)) {
    if (key in body) throw new InvalidRequest(`The form field ${JSON.stringify(key)} appears more than once.`);
    body[key] = value;
  }
  return body;
}

function parseJson(text: string): RequestBody {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InvalidRequest("The request body is not valid JSON.");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new InvalidRequest("The JSON body must be an object.");
  }
  // A null-prototype copy: keys such as "__proto__" stay plain data.
  return Object.assign(Object.create(null), value) as RequestBody;
}

/** Fields the handler itself reads; from a JSON body they could be any type. */
const STRING_FIELDS = ["csrfToken", "callbackUrl"];

/** Rejects a body whose `csrfToken` or `callbackUrl` is present but not a string. */
export function checkReservedFields(body: RequestBody): RequestBody {
  for (const name of STRING_FIELDS) {
    if (body[name] !== undefined && typeof body[name] !== "string") {
      throw new InvalidRequest(`The field ${JSON.stringify(name)} must be a string.`);
    }
  }
  return body;
}
