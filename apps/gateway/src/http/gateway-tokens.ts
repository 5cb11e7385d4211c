/** The resolved GatewayConfig. */
export const GATEWAY_CONFIG = 'nest-model-router:gateway:config';
/** The gateway's clock (`() => epoch ms`), shared with the module, the strategies and health. */
export const GATEWAY_CLOCK = 'nest-model-router:gateway:clock';
/** The gateway's ToolCallIds (signed tool call ids). */
export const GATEWAY_TOOL_CALL_IDS = 'nest-model-router:gateway:tool-call-ids';
/** The gateway's SecretRedactor: the configuration's secrets, kept out of answers and logs. */
export const GATEWAY_REDACTOR = 'nest-model-router:gateway:redactor';
