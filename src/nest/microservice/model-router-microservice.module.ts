import { Module } from '@nestjs/common';
import { requireMicroservices } from './load-microservices.js';
import { ModelRouterMicroserviceController } from './model-router-microservice.controller.js';
import { RunningCalls } from './running-calls.js';

/**
 * Answers MODEL_ROUTER_PATTERNS on the application's `@nestjs/microservices` transports (a
 * microservice from `NestFactory.createMicroservice`, or a hybrid app's `connectMicroservice`).
 * Import it beside ModelRouterModule.forRoot/forRootAsync:
 * `imports: [ModelRouterModule.forRoot(options), ModelRouterMicroserviceModule]`. Without the
 * `@nestjs/microservices` package installed, the application fails to start, naming it.
 */
@Module({
  controllers: [ModelRouterMicroserviceController],
  providers: [
    {
      provide: RunningCalls,
      useFactory: () => {
        requireMicroservices();
        return new RunningCalls();
      },
    },
  ],
})
// oxlint-disable-next-line typescript/no-extraneous-class -- a Nest module
export class ModelRouterMicroserviceModule {}
