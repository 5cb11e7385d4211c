import {
  createNoopMeter,
  metrics,
  ValueType,
  type Attributes,
  type Histogram,
  type MeterProvider,
} from '@opentelemetry/api';

const METER = 'nest-model-router';

/** The GenAI client metrics' bucket boundaries (semantic conventions), in seconds and tokens. */
const DURATION_BUCKETS = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
];
const TOKEN_BUCKETS = [
  1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
];

interface Instruments {
  duration: Histogram;
  tokens: Histogram;
  timeToFirstChunk: Histogram;
}

/**
 * The GenAI client metrics on the global meter. The API hands out no proxy meter: instruments
 * made before the app registers its MeterProvider would stay no-ops, so they are made again
 * whenever the global provider changes (one identity check per record).
 */
/** The API's no-op meter's class: a provider that hands one out records nothing. */
const NOOP_METER = createNoopMeter().constructor;

export class GenAiMetrics {
  private provider: MeterProvider | undefined;
  private instruments: Instruments | undefined;

  /** Whether a meter provider records: when none is registered, callers skip their attributes. */
  get enabled(): boolean {
    return this.current() !== undefined;
  }

  recordDuration(seconds: number, attributes: Attributes): void {
    this.current()?.duration.record(seconds, attributes);
  }

  recordTokens(count: number, type: 'input' | 'output', attributes: Attributes): void {
    this.current()?.tokens.record(count, { ...attributes, 'gen_ai.token.type': type });
  }

  recordTimeToFirstChunk(seconds: number, attributes: Attributes): void {
    this.current()?.timeToFirstChunk.record(seconds, attributes);
  }

  private current(): Instruments | undefined {
    const provider = metrics.getMeterProvider();
    if (provider === this.provider) return this.instruments;
    const meter = provider.getMeter(METER);
    this.provider = provider;
    if (meter.constructor === NOOP_METER) {
      this.instruments = undefined;
      return undefined;
    }
    this.instruments = {
      duration: meter.createHistogram('gen_ai.client.operation.duration', {
        description: 'GenAI operation duration',
        unit: 's',
        advice: { explicitBucketBoundaries: DURATION_BUCKETS },
      }),
      tokens: meter.createHistogram('gen_ai.client.token.usage', {
        description: 'Number of input and output tokens used',
        unit: '{token}',
        valueType: ValueType.INT,
        advice: { explicitBucketBoundaries: TOKEN_BUCKETS },
      }),
      timeToFirstChunk: meter.createHistogram('gen_ai.client.operation.time_to_first_chunk', {
        description: 'Time from the request until the first chunk of a streamed answer',
        unit: 's',
        advice: { explicitBucketBoundaries: DURATION_BUCKETS },
      }),
    };
    return this.instruments;
  }
}
