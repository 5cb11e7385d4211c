import type { Observable } from 'rxjs';

/**
 * What RemoteChatModel needs of a client: `send` of a request-response pattern. A
 * `@nestjs/microservices` ClientProxy (ClientTCP, ClientRedis, ClientNats, ClientKafka…) fits it;
 * declared here so that the package root never names a type of that optional peer dependency.
 */
export interface ModelRouterClient {
  send<TResult = unknown, TInput = unknown>(pattern: string, data: TInput): Observable<TResult>;
}
