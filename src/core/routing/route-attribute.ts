/** The attribute under which the chosen route's name travels (call options and AI messages). */
export const ROUTE_ATTRIBUTE = 'chat_model_route';
