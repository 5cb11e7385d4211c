/** The call attribute under which RoutingChatService passes the router's name to the router. */
export const ROUTER_ATTRIBUTE = 'model_router';
