import { Module } from '@nestjs/common';
import { TracingShutdown } from './tracing-shutdown.service';

/** Traces are started before the application (`register.ts`); this module ends them with it. */
@Module({ providers: [TracingShutdown] })
export class TracingModule {}
