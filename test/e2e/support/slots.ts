/**
 * At most `count` tasks at once, the others waiting their turn: for the e2e
 * files that make several apps at once, whose installs wait on the network and
 * the disk while the builds take a CPU each (two at a time on CI's 2 CPUs).
 */
export type Slots = <T>(task: () => Promise<T>) => Promise<T>;

export function slots(count: number): Slots {
  let free = count;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (free > 0) free -= 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free += 1;
    }
  };
}
