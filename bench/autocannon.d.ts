/**
 * The part of autocannon 9's programmatic API the bench uses (the package ships no types).
 * Shapes from its README ("API") and lib/aggregateResult.js.
 */
declare module 'autocannon' {
  /** hdr-histogram-percentiles-obj; latency values are whole milliseconds. */
  export interface Histogram {
    average: number
    mean: number
    stddev: number
    min: number
    max: number
    p50: number
    p90: number
    p97_5: number
    p99: number
    p99_9: number
    /** requests: completed requests; throughput: bytes. */
    total?: number
    /** requests only: requests sent. */
    sent?: number
  }

  export interface RequestSpec {
    method?: string
    path?: string
    headers?: Record<string, string>
    /** Called before each request when present; returns the request to send. */
    setupRequest?: (req: RequestSpec, context: Record<string, unknown>) => RequestSpec
  }

  export interface Options {
    url: string
    connections?: number
    /** Seconds. */
    duration?: number
    pipelining?: number
    /** Seconds before a request counts as timed out. */
    timeout?: number
    requests?: RequestSpec[]
  }

  export interface Result {
    /** Seconds. */
    duration: number
    errors: number
    timeouts: number
    non2xx: number
    latency: Histogram
    requests: Histogram
    throughput: Histogram
    statusCodeStats: Record<string, { count: number }>
  }

  /** The running benchmark: a promise of the result that also reports each failed request. */
  export interface Instance extends Promise<Result> {
    on(event: 'reqError', listener: (err: Error) => void): this
  }

  export default function autocannon(opts: Options): Instance
}
