/**
 * The few PostgreSQL wire-protocol frontend messages a prepared statement needs
 * (Parse, Bind, Describe, Execute, Sync, Close), and reading the rows out of the
 * backend messages that answer them. Pure: bytes in, bytes out. PGlite runs
 * them through its `execProtocol`, the way node-postgres runs named queries.
 */

const encoder = new TextEncoder();

/** A message: its type byte, its length (itself included), its body. */
function message(type: string, parts: readonly Uint8Array[]): Uint8Array {
  const length = 4 + parts.reduce((sum, part) => sum + part.length, 0);
  const out = new Uint8Array(1 + length);
  out[0] = type.charCodeAt(0);
  new DataView(out.buffer).setInt32(1, length);
  let offset = 5;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function cString(text: string): Uint8Array {
  const bytes = encoder.encode(text);
  const out = new Uint8Array(bytes.length + 1);
  out.set(bytes);
  return out;
}

function int16(value: number): Uint8Array {
  const out = new Uint8Array(2);
  new DataView(out.buffer).setInt16(0, value);
  return out;
}

function int32(value: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setInt32(0, value);
  return out;
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Parse: `text` becomes the statement `name`; every parameter's type is left for the server to infer (OID 0). */
export function parseMessage(name: string, text: string, parameterCount: number): Uint8Array {
  return message("P", [cString(name), cString(text), int16(parameterCount), ...Array.from({ length: parameterCount }, () => int32(0))]);
}

/** Close: forget the statement `name` (its cached plan no longer fits the tables). */
export function closeMessage(name: string): Uint8Array {
  return message("C", [new Uint8Array([0x53]), cString(name)]);
}

/** Bind (text values, `null` as SQL NULL; text results), Describe the portal, Execute it, Sync. */
export function executeMessages(name: string, values: readonly (string | null)[]): Uint8Array {
  const parameters = values.flatMap((value) => {
    if (value === null) return [int32(-1)];
    const bytes = encoder.encode(value);
    return [int32(bytes.length), bytes];
  });
  return concat([
    message("B", [cString(""), cString(name), int16(0), int16(values.length), ...parameters, int16(0)]),
    message("D", [new Uint8Array([0x50]), cString("")]),
    message("E", [cString(""), int32(0)]),
    message("S", []),
  ]);
}

/** The backend messages read here, as PGlite's protocol parser gives them. */
export type BackendMessage =
  | { name: "rowDescription"; fields: readonly { name: string; dataTypeID: number }[] }
  | { name: "dataRow"; fields: readonly (string | null)[] }
  | { name: string; fields?: unknown };

export type TypeParser = (value: string, typeId: number) => unknown;

/** The rows of a statement's answer, each value parsed by its column type (as the driver's own `query` does). */
export function rowsOf<Row>(messages: readonly BackendMessage[], parsers: Readonly<Record<number, TypeParser>>): Row[] {
  let columns: readonly { name: string; dataTypeID: number }[] = [];
  const rows: Row[] = [];
  for (const received of messages) {
    if (received.name === "rowDescription") {
      columns = (received as Extract<BackendMessage, { name: "rowDescription" }>).fields;
    } else if (received.name === "dataRow") {
      const values = (received as Extract<BackendMessage, { name: "dataRow" }>).fields;
      const row: Record<string, unknown> = {};
      columns.forEach((column, i) => {
        const value = values[i] ?? null;
        const parse = parsers[column.dataTypeID];
        row[column.name] = value === null ? null : parse ? parse(value, column.dataTypeID) : value;
      });
      rows.push(row as Row);
    }
  }
  return rows;
}
