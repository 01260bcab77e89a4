/**
 * Terminal colours, off when the stream is not a TTY or NO_COLOR is set
 * (https://no-color.org), on when FORCE_COLOR asks for them.
 */
import type { WriteStream } from "node:tty";

export interface Colors {
  bold(text: string): string;
  dim(text: string): string;
  green(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

export function colorsFor(stream: NodeJS.WriteStream | WriteStream, env: NodeJS.ProcessEnv = process.env): Colors {
  const on = env.FORCE_COLOR ? env.FORCE_COLOR !== "0" : !("NO_COLOR" in env && env.NO_COLOR !== "") && stream.isTTY === true;
  const wrap = (open: number, close: number) => (text: string) => (on ? `\u001b[${open}m${text}\u001b[${close}m` : text);
  return { bold: wrap(1, 22), dim: wrap(2, 22), green: wrap(32, 39), red: wrap(31, 39), yellow: wrap(33, 39), cyan: wrap(36, 39) };
}
