/**
 * The call attribute that names a conversation's session. Calls with the same session key stay
 * on the model that last answered them (per route) for a while, so its prompt cache stays warm.
 */
export const SESSION_ATTRIBUTE = 'model_router_session';
