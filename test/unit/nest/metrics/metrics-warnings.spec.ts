import 'reflect-metadata';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { Registry } from 'prom-client';
import { loadPromClient } from '../../../../src/nest/metrics/load-prom-client.js';
import { ModelRouterMetrics } from '../../../../src/nest/metrics/model-router-metrics.js';

afterEach(() => {
  jest.restoreAllMocks();
});

describe('ModelRouterMetrics warnings', () => {
  it('a router whose inspection throws is logged on one line, scrubbed and escaped', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const registry = new Registry();
    const metrics = new ModelRouterMetrics(await loadPromClient(), { registry });
    metrics.bindInspection(() => {
      throw new Error("model 'evil\n[Nest] LOG forged' is down (api_key=sk-secret-0123456789)");
    });

    const scrape = await registry.metrics();

    expect(scrape).toContain(metrics.names.modelState);
    expect(warn).toHaveBeenCalledTimes(1);
    const line = String(warn.mock.calls[0]![0]);
    expect(line).not.toContain('\n');
    expect(line).toContain("model 'evil\\n[Nest] LOG forged'");
    expect(line).not.toContain('sk-secret-0123456789');
    metrics.unregister();
  });
});
