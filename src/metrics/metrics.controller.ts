import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Registry } from 'prom-client';
import { Needs } from '../auth/needs';
import { MetricsService } from './metrics.service';

/** Where Prometheus scrapes; like the API document, not part of it. */
export const METRICS_PATH = '/metrics';

/** The scrape endpoint, registered only with METRICS_ENABLED. */
@ApiExcludeController()
@Controller(METRICS_PATH)
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @Needs.health()
  @Header('Content-Type', Registry.PROMETHEUS_CONTENT_TYPE)
  @Header('Cache-Control', 'no-store')
  scrape(): Promise<string> {
    return this.metrics.scrape();
  }
}
