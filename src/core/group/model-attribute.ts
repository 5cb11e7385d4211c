/**
 * The attribute under which the model of a group that answered travels on an AI message, so a
 * tool loop's next round can return to the same model (prompt caches, provider-side tool state).
 */
export const MODEL_ATTRIBUTE = 'chat_model_name';
