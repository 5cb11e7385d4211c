import { Inject } from '@nestjs/common';
import { getChatModelToken, getRouterToken } from './tokens.js';

/** Injects the model registered under `models.<name>`. */
export const InjectChatModel = (name: string): ParameterDecorator & PropertyDecorator =>
  Inject(getChatModelToken(name));

/** Injects the router registered under `routers.<name>`. */
export const InjectRouter = (name: string): ParameterDecorator & PropertyDecorator =>
  Inject(getRouterToken(name));
