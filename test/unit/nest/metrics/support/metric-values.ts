import type { Registry } from 'prom-client';

export type Labels = Record<string, string | number>;

export interface Sample {
  labels: Labels;
  value: number;
  metricName?: string;
}

/** Every sample of one metric (histograms: buckets, sum and count, told apart by metricName). */
export async function samples(registry: Registry, name: string): Promise<Sample[]> {
  const metric = registry.getSingleMetric(name);
  if (!metric) throw new Error(`no metric named ${name} in the registry`);
  const { values } = await metric.get();
  return values as Sample[];
}

/** The value of the sample whose labels are exactly `labels`, or undefined when there is none. */
export async function valueOf(
  registry: Registry,
  name: string,
  labels: Labels,
  metricName = name,
): Promise<number | undefined> {
  const match = (await samples(registry, name)).find(
    (sample) => (sample.metricName ?? name) === metricName && sameLabels(sample.labels, labels),
  );
  return match?.value;
}

function sameLabels(actual: Labels, expected: Labels): boolean {
  const keys = Object.keys(expected);
  return (
    Object.keys(actual).length === keys.length &&
    keys.every((key) => String(actual[key]) === String(expected[key]))
  );
}
