type Writable = NodeJS.WriteStream;

const isEpipe = (e: unknown) => (e as NodeJS.ErrnoException | null)?.code === "EPIPE";

/**
 * A reader that stops reading (`agentmux run --ci | head -2`) closes our stdout: the next write
 * fails with EPIPE, synchronously or as an 'error' event. Output then ends quietly — the run is
 * not stopped by it: the launcher keeps following it and exits with the run's exit code.
 */
export function quietWhenClosed(stream: Writable): void {
  let closed = false;
  const write = stream.write.bind(stream) as (...a: unknown[]) => boolean;
  stream.on("error", (e) => {
    if (isEpipe(e)) closed = true;
    else throw e;
  });
  stream.write = ((...args: unknown[]) => {
    if (closed) return true;
    try {
      return write(...args);
    } catch (e) {
      if (!isEpipe(e)) throw e;
      closed = true;
      return true;
    }
  }) as Writable["write"];
}
