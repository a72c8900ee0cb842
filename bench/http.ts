/**
 * A bounded HTTP load loop against this machine: `concurrency` workers for `seconds`, then figures. `url`
 * may be a function of the request's number, to spread the load over many addresses. A request that has
 * no answer after `timeoutMs` is abandoned (the connection closes) and counted as a timeout.
 */
export async function load(
  url: string | ((n: number) => string),
  options: { concurrency: number; seconds: number; timeoutMs?: number },
) {
  const latencies: number[] = [];
  let errors = 0;
  let timeouts = 0;
  let busy = 0;
  let n = 0;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const deadline = performance.now() + options.seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      const started = performance.now();
      try {
        const res = await fetch(typeof url === "string" ? url : url(n++), {
          signal: AbortSignal.timeout(timeoutMs),
        });
        await res.arrayBuffer();
        if (res.status === 503) busy++;
        else if (!res.ok) errors++;
      } catch (error) {
        if ((error as Error).name === "TimeoutError") timeouts++;
        else errors++;
      }
      latencies.push(performance.now() - started);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
  return {
    requests: latencies.length,
    errors,
    timeouts,
    busy,
    rps: Math.round(latencies.length / elapsed),
    p50: Number(pct(50).toFixed(2)),
    p99: Number(pct(99).toFixed(2)),
    max: Number((latencies.at(-1) ?? 0).toFixed(2)),
  };
}
