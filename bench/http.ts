import autocannon from "autocannon";

/**
 * A bounded HTTP load against this machine with autocannon: `concurrency` connections for `seconds`,
 * then figures. `url` may be a function of the request's number, to spread the load over many addresses
 * (all on one origin). A request with no answer after `timeoutMs` is abandoned (its connection closes)
 * and counted as a timeout. autocannon's client is a plain HTTP/1.1 writer and parser, so the load
 * generator takes far less of the two cores it shares with the server than fetch did.
 */
export async function load(
  url: string | ((n: number) => string),
  options: { concurrency: number; seconds: number; timeoutMs?: number },
) {
  const first = new URL(typeof url === "string" ? url : url(0));
  let n = 0;
  const result = await autocannon({
    url: first.origin,
    connections: options.concurrency,
    duration: options.seconds,
    timeout: Math.ceil((options.timeoutMs ?? 10_000) / 1000),
    requests: [
      {
        setupRequest: (request) => {
          const target = typeof url === "string" ? first : new URL(url(n++));
          return { ...request, method: "GET", path: `${target.pathname}${target.search}` };
        },
      },
    ],
  });
  const busy = Number(result.statusCodeStats?.["503"]?.count ?? 0);
  // Timeouts are among autocannon's errors; here they are counted apart, as are the 503s among non-2xx.
  const errors = result.errors - result.timeouts + (result.non2xx - busy);
  const requests = result.requests.total;
  return {
    requests,
    errors,
    timeouts: result.timeouts,
    busy,
    rps: Math.round(requests / result.duration),
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
  };
}
